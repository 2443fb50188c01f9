/**
 * Issue 26, health endpoints for a load balancer: `/_health/live` answers 200 from the first second,
 * `/_health/ready` 503 while the instance starts (database, migrations, seed) and 200 once the APIs answer;
 * both unauthenticated, never cached, naming the state only.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { cleanupSites, freePort, startSite, stopSite } from '../support/site'

afterAll(() => cleanupSites())

const get = (url: string, method = 'GET') =>
  fetch(url, { method, signal: AbortSignal.timeout(2_000) }).then(
    async (r) => ({ status: r.status, body: method === 'HEAD' ? '' : await r.text(), headers: r.headers }),
    () => null,
  )

describe('health endpoints', () => {
  it('ready is 503 while starting (migrations on an empty database), then 200; live is 200 throughout; no detail, no cache', async () => {
    const name = `cwa_test_health_${process.pid}`
    await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`))
    try {
      const port = await freePort()
      const base = `http://127.0.0.1:${port}`
      const seen: Array<{ ready: number; live: number | undefined }> = []
      let done = false
      // Watches from before the start: the port is taken first, the migrations take seconds.
      const watching = (async () => {
        while (!done) {
          const ready = await get(`${base}/_health/ready`)
          if (ready) seen.push({ ready: ready.status, live: (await get(`${base}/_health/live`))?.status })
          if (ready?.status === 200) return
          await new Promise((r) => setTimeout(r, 50))
        }
      })()
      const site = await startSite({ DATABASE_URL: databaseUrl(name), PORT: String(port), CWA_JOBS_RUNNER: '0' })
      await watching
      done = true
      const starting = seen.filter((s) => s.ready === 503)
      expect(starting.length).toBeGreaterThan(0)
      expect(seen.at(-1)!.ready).toBe(200)
      expect(seen.every((s) => s.live === 200)).toBe(true)

      const ready = (await get(`${site.base}/_health/ready`))!
      expect(ready.status).toBe(200)
      expect(JSON.parse(ready.body)).toEqual({ status: 'ready' })
      expect(ready.headers.get('cache-control')).toBe('no-store')
      const live = (await get(`${site.base}/_health/live?probe=1`))!
      expect(JSON.parse(live.body)).toEqual({ status: 'alive' })
      expect((await get(`${site.base}/_health/ready`, 'HEAD'))!.status).toBe(200)
      const post = (await get(`${site.base}/_health/ready`, 'POST'))!
      expect(post.status).toBe(405)
      expect(post.headers.get('allow')).toBe('GET, HEAD')
      expect(await stopSite(site.child)).toBe(0)
    } finally {
      await dropDatabase(name)
    }
  }, 300_000)
})
