/**
 * `BENCH_ONLY='read model hostile' npm run bench`: the read model's store
 * under one-shot hostile reads, at the site's bounds (the defaults unless
 * configured). The demo site's public reads are stored first (each read
 * twice: the second is a hit); then HOSTILE anonymous requests, each sent
 * once and never again, name the same resources in the ways anyone can make
 * up: a cache-busting query string, another spelling of an item's path (some
 * of its UUID's characters escaped), a made-up `Host` (the bench has no
 * SERVER_URL) and a made-up `path` header. Then as many such shapes as
 * the store may hold answers (`readModel.maxEntries`), each sent twice (so
 * admission takes them, and the bound must evict). Reports the store's size
 * after each phase and the share of the site's reads still served from it.
 */
import type { Payload } from 'payload'
import { getOptions, readModelSize } from 'payload-cwa'
import { request } from 'node:http'

const HOSTILE = 10_000
const AT_ONCE = 8

interface Sent {
  path: string
  headers: Record<string, string>
}

/** A GET with the path as given and any Host (fetch would normalize the one and refuse the other). */
function get(base: string, { path, headers }: Sent): Promise<{ status: number; source: string }> {
  const url = new URL(base)
  return new Promise((resolve, reject) => {
    const sent = request({ host: url.hostname, port: url.port, path, headers }, (response) => {
      response.resume()
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, source: String(response.headers['cwa-read-model'] ?? '') }),
      )
    })
    sent.on('error', reject)
    sent.end()
  })
}

async function sendAll(base: string, requests: Sent[]): Promise<Map<number, number>> {
  const statuses = new Map<number, number>()
  let next = 0
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < requests.length) {
        const { status } = await get(base, requests[next++]!)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
    }),
  )
  return statuses
}

/** The site's public reads: its routes by path, pages, layouts, groups, positions and published components. */
async function siteReads(payload: Payload): Promise<{ all: string[]; items: string[] }> {
  const ids = async (collection: string, where = {}) =>
    (await payload.find({ collection: collection as never, where, depth: 0, limit: 200, pagination: false })).docs
  const items = [
    ...(await ids('pages')).map((doc) => `/_api/_/pages/${doc.id}`),
    ...(await ids('layouts')).map((doc) => `/_api/_/layouts/${doc.id}`),
    ...(await ids('component_groups')).map((doc) => `/_api/_/component_groups/${doc.id}`),
    ...(await ids('component_positions')).map((doc) => `/_api/_/component_positions/${doc.id}`),
    ...(await ids('html_contents', { publishedAt: { less_than_equal: new Date().toISOString() } })).map(
      (doc) => `/_api/component/html_contents/${doc.id}`,
    ),
  ]
  const routes = (await ids('routes')).map((doc) => `/_api/_/routes/${encodeURIComponent(String(doc.path))}`)
  return { all: [...routes, ...items], items }
}

/** The n-th made-up request: one of four kinds, each naming a resource of the site in a way never sent before. */
function hostile(n: number, site: { all: string[]; items: string[] }, salt: string): Sent {
  const accept = { accept: 'application/ld+json' }
  const any = site.all[n % site.all.length]!
  switch (n % 4) {
    case 0:
      return { path: `${any}?bust=${salt}${n}`, headers: accept }
    case 1: {
      // Characters of the UUID picked by the bits of n / 4 (and the item by the rest), escaped: `%30` for `0`.
      const item = site.items[Math.floor(n / 4) % site.items.length]!
      const bits = Math.floor(n / 4 / site.items.length) + 1 + (salt ? 1 << 13 : 0)
      const slash = item.lastIndexOf('/') + 1
      const id = [...item.slice(slash)]
        .map((c, i) => (i < 14 && (bits >> i) & 1 ? `%${c.charCodeAt(0).toString(16)}` : c))
        .join('')
      return { path: `${item.slice(0, slash)}${id}`, headers: accept }
    }
    case 2:
      return { path: any, headers: { ...accept, host: `h${salt}${n}.example` } }
    default:
      return { path: any, headers: { ...accept, path: `/made-up/${salt}${n}` } }
  }
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2)

export async function benchReadModelHostile(payload: Payload, base: string): Promise<string[][]> {
  const { maxEntries, maxBytes } = getOptions(payload.config).readModel
  const site = await siteReads(payload)
  const plain = site.all.map((path) => ({ path, headers: { accept: 'application/ld+json' } }))
  const rows = [
    [
      `read model under hostile reads (bounds ${maxEntries} answers, ${mib(maxBytes)} MiB)`,
      'requests',
      'answers',
      'bodies MiB',
      'on disk MiB',
      "site's reads served from the store",
    ],
  ]
  const report = async (label: string, requests: number) => {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const size = await readModelSize(payload)
    let hits = 0
    for (const read of plain) if ((await get(base, read)).source === 'hit') hits++
    rows.push([
      label,
      String(requests),
      String(size.entries),
      mib(size.bodyBytes),
      mib(size.diskBytes),
      `${hits} of ${plain.length} (${((100 * hits) / plain.length).toFixed(1)} %)`,
    ])
  }
  await sendAll(base, plain)
  await report(`the site's ${plain.length} reads, once each`, plain.length)
  let started = performance.now()
  const once = Array.from({ length: HOSTILE }, (_, n) => hostile(n, site, ''))
  const statuses = await sendAll(base, once)
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  await report(
    `${HOSTILE} one-shot hostile requests (${seconds} s; ${[...statuses].map(([s, c]) => `${c} × ${s}`).join(', ')})`,
    HOSTILE,
  )
  started = performance.now()
  const twice = Array.from({ length: maxEntries }, (_, n) => hostile(n, site, 't'))
  await sendAll(
    base,
    twice.flatMap((sent) => [sent, sent]),
  )
  await report(
    `${maxEntries} hostile shapes sent twice each (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    2 * maxEntries,
  )
  return rows
}
