/**
 * `npm run bench` (alone: `BENCH_ONLY='front end' npm run bench`): the
 * front-end target. Every request the CWA Nuxt module sends to render the
 * demo's home, blog and an article page, anonymous (bench/frontEndWorker.mjs,
 * in a process of its own), as pages per second, against two instances of
 * the site on the bench's database with the module's profile
 * (`compat: 'cwa-nuxt'`): the read model on (its answers stored after the
 * first render) and off (Payload's path), in one run. Ratios matter, not
 * the machine's figures.
 */
import { execFile } from 'node:child_process'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { buildSiteConfig } from '../payload.config'
import { closePayload, loadJwtKeys } from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { startPayload } from '../src/server/bootstrap'

// From the project root (npm run bench runs there; this file is bundled elsewhere), as the cannon's worker.
const worker = path.join(process.cwd(), 'bench', 'frontEndWorker.mjs')
const PAGES = ['/', '/blog', '/blog/first-article']

interface Rendered {
  pages: number
  requests: number
  p50: number
  failed: string | null
}

function renderPages(base: string, connections: number, duration: number): Promise<Rendered> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [worker], { maxBuffer: 1 << 20 }, (error, out, err) => {
      if (error) return reject(new Error(`${error.message}\n${err}`))
      const result = JSON.parse(out) as Rendered
      return result.failed ? reject(new Error(`front-end render failed: ${result.failed}`)) : resolve(result)
    })
    child.stdin!.end(JSON.stringify({ base, pages: PAGES, connections, duration }))
  })
}

async function startSite(databaseUrl: string, key: string, readModel: boolean) {
  const payload = await startPayload({
    config: buildSiteConfig({ databaseUrl, options: { compat: 'cwa-nuxt', readModel: { enabled: readModel } } }),
    key,
    migrate: false,
  })
  const app = createApp({ payload, keys: await loadJwtKeys(process.env) })
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s))
  })
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((resolve) => server.close(resolve))
      await closePayload(payload)
    },
  }
}

export async function benchFrontEnd(
  databaseUrl: string,
  { connections, duration, idle }: { connections: number[]; duration: number; idle: () => Promise<void> },
): Promise<string[][]> {
  const stored = await startSite(databaseUrl, 'bench-front-end', true)
  const plain = await startSite(databaseUrl, 'bench-front-end-plain', false)
  const rows = [
    [
      'front end (home, blog, article)',
      'conn',
      'requests/page',
      'pages/s',
      'page p50 ms',
      "Payload's path pages/s",
      "Payload's path p50 ms",
      'x path',
    ],
  ]
  try {
    // Renders of each page first: the module's reads carry a path header, variants the read model stores at
    // their second miss (readModel.admitVariantsAfter); both instances warm up.
    for (let i = 0; i < 2; i++) {
      await renderPages(stored.base, 1, 1)
      await renderPages(plain.base, 1, 1)
    }
    for (const c of connections) {
      await idle()
      const withModel = await renderPages(stored.base, c, duration)
      await idle()
      const without = await renderPages(plain.base, c, duration)
      rows.push([
        'render, anonymous',
        String(c),
        (withModel.requests / withModel.pages).toFixed(1),
        (withModel.pages / duration).toFixed(1),
        withModel.p50.toFixed(1),
        (without.pages / duration).toFixed(1),
        without.p50.toFixed(1),
        (withModel.pages / Math.max(1, without.pages)).toFixed(2),
      ])
    }
  } finally {
    await stored.close()
    await plain.close()
  }
  return rows
}
