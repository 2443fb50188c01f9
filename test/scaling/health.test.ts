/**
 * Health endpoints for a load balancer, against the site as `npm start` runs it (its database reached
 * through a TCP proxy on loopback, so that the test can cut it):
 * - issue 26: `/_health/live` answers 200 from the first second, `/_health/ready` 503 while the instance
 *   starts (database, migrations, seed) and 200 once the APIs answer; unauthenticated, never cached, naming
 *   the state only;
 * - issue 36: readiness tells the truth (503 while the database is unreachable, 200 once it is back; a flood
 *   of probes costs at most one database connection a second), and SIGTERM drains: under CPU load, requests
 *   sent just before it are all answered (none reset or refused).
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import os from 'node:os'
import { TEST_PG_URL, dropDatabase, withAdminClient } from '../support/database'
import { cleanupSites, freePort, startSite } from '../support/site'
import { waitFor } from '../support/wait'

const name = `cwa_test_health_${process.pid}`
const busy: ChildProcess[] = []

afterAll(async () => {
  for (const child of busy) if (child.exitCode === null) child.kill('SIGKILL')
  cleanupSites()
  proxy?.close()
  await dropDatabase(name)
})

const get = (url: string, method = 'GET') =>
  fetch(url, { method, signal: AbortSignal.timeout(5_000) }).then(
    async (r) => ({ status: r.status, body: method === 'HEAD' ? '' : await r.text(), headers: r.headers }),
    () => null,
  )

/**
 * A TCP proxy in front of the test PostgreSQL server: `cut()` ends every connection through it and
 * turns new ones away at once (as a database gone from the network), `restore()` lets them through
 * again; `connections` counts the connections the site opened through it.
 */
function pgProxy(port: number) {
  const target = new URL(TEST_PG_URL)
  const sockets = new Set<net.Socket>()
  const state = { cut: false, connections: 0 }
  const server = net.createServer((client) => {
    state.connections++
    if (state.cut) return void client.destroy()
    const upstream = net.connect(Number(target.port || 5432), target.hostname)
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      sockets.add(a)
      a.pipe(b)
      a.on('error', () => b.destroy())
      a.on('close', () => {
        sockets.delete(a)
        b.destroy()
      })
    }
  })
  server.listen(port, '127.0.0.1')
  return {
    state,
    url: `postgres://${target.username ? `${target.username}${target.password ? `:${target.password}` : ''}@` : ''}127.0.0.1:${port}/${name}`,
    cut() {
      state.cut = true
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      state.cut = false
    },
    close() {
      this.cut()
      server.close()
    },
  }
}

let proxy: ReturnType<typeof pgProxy> | undefined
let site: Awaited<ReturnType<typeof startSite>>

describe('health endpoints', () => {
  it('ready is 503 while starting (migrations on an empty database), then 200; live is 200 throughout; no detail, no cache', async () => {
    await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`))
    proxy = pgProxy(await freePort())
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
    site = await startSite({ DATABASE_URL: proxy.url, PORT: String(port), CWA_JOBS_RUNNER: '0' }, 240_000, {
      npm: true,
    })
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
  }, 300_000)

  it('attack: a load balancer keeps sending traffic to an instance whose database is gone (ready said 200 through the outage): ready is 503 while it is unreachable, 200 once back; live stays 200; a probe flood opens at most one connection', async () => {
    const flood = async (n: number) => {
      const before = proxy!.state.connections
      const statuses = await Promise.all(Array.from({ length: n }, () => get(`${site.base}/_health/ready`)))
      return { statuses: [...new Set(statuses.map((s) => s?.status))], opened: proxy!.state.connections - before }
    }
    // Healthy: 200 probes at once share one probe (or a reused answer): at most one connection.
    const healthy = await flood(200)
    expect(healthy.statuses).toEqual([200])
    expect(healthy.opened).toBeLessThanOrEqual(1)

    proxy!.cut()
    const cutAt = Date.now()
    const down = await waitFor(
      async () => {
        const ready = await get(`${site.base}/_health/ready`)
        return ready?.status === 503 && ready
      },
      { timeout: 10_000, interval: 100, message: 'readiness to turn 503 once the database is cut off' },
    )
    const detected = Date.now() - cutAt
    expect(JSON.parse(down.body)).toEqual({ status: 'unavailable' })
    expect(down.headers.get('retry-after')).toBe('5')
    // What readiness says is what the API does meanwhile; liveness stays 200 (no restart needed).
    expect((await get(`${site.base}/_api/_/pages`))?.status).toBe(503)
    expect((await get(`${site.base}/_health/live`))?.status).toBe(200)
    const outage = await flood(200)
    expect(outage.statuses).toEqual([503])
    expect(outage.opened).toBeLessThanOrEqual(1)

    proxy!.restore()
    await waitFor(async () => (await get(`${site.base}/_health/ready`))?.status === 200, {
      timeout: 10_000,
      interval: 100,
      message: 'readiness to turn 200 once the database is back',
    })
    await waitFor(async () => (await get(`${site.base}/_api/_/pages`))?.status === 200, {
      timeout: 10_000,
      message: 'the API answering again',
    })
    expect(site.output()).toMatch(/The database is unreachable \(.*\): \/_health\/ready answers 503/)
    expect(site.output()).toContain('The database answers again: /_health/ready answers 200')
    process.stdout.write(`Readiness turned 503 ${detected} ms after the database was cut off\n`)
  }, 60_000)

  it('attack: SIGTERM under CPU load reset the connections of requests sent just before it (14 × 200, one 503, 9 ECONNRESET): all 24 are answered 200, none reset', async () => {
    // Kept-alive connections, idle when the signal comes (a load balancer's pool).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })
    // Each request's bytes handed to the kernel: the signal must come after the requests are sent (a client starved
    // of CPU may otherwise connect after the drain delay, which no server can answer).
    const written: Array<Promise<void>> = []
    const send = () =>
      new Promise<{ status: number | string; close: boolean }>((resolve) => {
        const request = http.get(`${site.base}/_api/_/pages`, { agent, timeout: 30_000 }, (response) => {
          response.resume()
          response.on('end', () =>
            resolve({ status: response.statusCode!, close: response.headers.connection === 'close' }),
          )
          response.on('error', (error: NodeJS.ErrnoException) =>
            resolve({ status: error.code ?? 'error', close: true }),
          )
        })
        request.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: `${error.code ?? 'error'}${request.reusedSocket ? ' (kept-alive)' : ''}`, close: true }),
        )
        written.push(new Promise((sent) => request.once('finish', () => sent()).once('error', () => sent())))
      })
    const warm = await Promise.all(Array.from({ length: 8 }, send))
    expect(warm.map((w) => w.status)).toEqual(Array(8).fill(200))
    // CPU pressure: busy node processes, twice as many as cores.
    for (let i = 0; i < 2 * os.availableParallelism(); i++)
      busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
    await new Promise((r) => setTimeout(r, 500))
    const exited = new Promise<number | null>((resolve) => site.child.once('exit', (code) => resolve(code)))
    written.length = 0
    const answers = Promise.all(Array.from({ length: 24 }, send))
    await Promise.all(written)
    await new Promise((r) => setTimeout(r, 30))
    site.child.kill('SIGTERM') // to npm, as a supervisor does
    const results = await answers
    for (const child of busy) child.kill('SIGKILL')
    agent.destroy()
    const statuses = results.map((r) => r.status)
    process.stdout.write(
      `Drain under CPU load: ${statuses.filter((s) => s === 200).length} × 200 of 24, ${statuses.filter((s) => s !== 200).length} otherwise (${statuses.filter((s) => s !== 200).join(', ') || 'none'}); ${results.filter((r) => r.close).length} with Connection: close\n`,
    )
    // The whole stop log (once the process is gone) beside a failure: what the drain saw and closed.
    const code = await exited
    const log = site.output().slice(site.output().indexOf('SIGTERM received'))
    expect({ statuses, log: statuses.every((s) => s === 200) ? '' : log }).toEqual({
      statuses: Array(24).fill(200),
      log: '',
    })
    expect(code).toBe(0)
    const tail = site.output().slice(site.output().indexOf('SIGTERM received'))
    expect(tail).toMatch(/readiness answers 503; requests are still answered for 250 ms/)
    expect(tail).not.toMatch(/ERROR|still running after/)
  }, 60_000)
})
