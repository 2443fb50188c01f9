/**
 * npm run bench: throughput and latency of the JSON-LD read paths next to
 * Payload's own REST API on the same documents, plus the SQL queries each
 * JSON-LD request makes. Publishable paths: a published component read
 * anonymously, a component with a pending draft read by an admin (draft
 * routing), and publishing drafts (PATCH publishedAt, each request on a
 * fresh draft). Routes: a route by path, the routes collection holding
 * 1,000 routes, and the resource manifest of a three-depth page with 5 and
 * with 50 components (its SQL count must stay the same). Runs against
 * PostgreSQL (BENCH_PG_URL, default the local server) on a fresh database;
 * nothing here is a test. BENCH_SECONDS,
 * BENCH_CONNECTIONS and BENCH_PUBLICATIONS size the runs; BENCH_SQL=1 prints
 * the SQL of each counted request. Uploads: a 12-megapixel JPEG with its
 * thumbnail variant, its time and the process's peak memory (bench/upload.ts).
 */
import autocannon from 'autocannon'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../payload.config'
import { closePayload, createApp, loadJwtKeys } from 'payload-cwa'
import { startPayload } from '../src/server/bootstrap'
import { seedDemo } from '../src/seed/demo'
import { BULK_ROUTES, setUpStructure } from './structure'
import { measureTiming } from './timing'
import { measureUpload } from './upload'

const PG = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '')
const DB = 'cwa_bench'
const DURATION = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)
/** Drafts published per publish variant (each PATCH publishes a fresh one). */
const PUBLICATIONS = Number(process.env.BENCH_PUBLICATIONS ?? Math.max(50, 50 * DURATION))

/** The autocannon options and results used here (types/autocannon.d.ts declares only the basic call). */
interface CannonRequest {
  method?: string
  path?: string
  headers?: Record<string, string>
  body?: string
}
interface CannonOptions {
  url: string
  connections: number
  duration?: number
  amount?: number
  headers?: Record<string, string>
  requests?: Array<CannonRequest & { setupRequest?: (request: CannonRequest) => CannonRequest }>
}
interface CannonResult {
  requests: { average: number }
  latency: { p50: number; p99: number }
  non2xx: number
  errors: number
}
const cannon = autocannon as unknown as (options: CannonOptions) => Promise<CannonResult>

let queryLog: string[] | null = null
const originalQuery = pg.Client.prototype.query
pg.Client.prototype.query = function countingQuery(this: pg.Client, ...args: unknown[]) {
  if (queryLog) queryLog.push(String((args[0] as { text?: string })?.text ?? args[0]))
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args)
} as typeof pg.Client.prototype.query

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG}/postgres` })
  await client.connect()
  await client.query(sql)
  await client.end()
}

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${DB}`)
  process.env.CWA_DATA_DIR ??= '.data/bench'
  const payload = await startPayload({ config: buildSiteConfig({ databaseUrl: `${PG}/${DB}` }), key: 'bench' })
  await seedDemo(payload, { apiPrefix: '/_api' })
  // HtmlContent is publishable: without publishedAt a Local API create is a draft that anonymous callers never see.
  const past = new Date(Date.now() - 60_000).toISOString()
  for (let i = 0; i < 40; i++) {
    await payload.create({ collection: 'html_contents', data: { html: `<p>Bench content ${i}</p>`, publishedAt: past } as never, depth: 0 })
  }
  const structure = await setUpStructure(payload)
  const keys = await loadJwtKeys(process.env)
  const app = createApp({ payload, keys })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  // autocannon resolves while its last requests may still run on the server: the query count of
  // the next check waits for them, so that it counts that one request only.
  let inFlight = 0
  server.on('request', (_req, res) => {
    inFlight++
    res.once('close', () => inFlight--)
  })
  const idle = async () => {
    // Requests autocannon sent just before it stopped may reach the server a moment later.
    await new Promise((resolve) => setTimeout(resolve, 300))
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const adminToken = await signIn(payload, base)
  const asAdmin = { authorization: `Bearer ${adminToken}` }

  const page = (await payload.find({ collection: 'pages', where: { reference: { equals: 'home' } }, depth: 0 })).docs[0]!
  const component = (await payload.find({ collection: 'html_contents', where: { publishedAt: { exists: true } }, limit: 1, depth: 0 })).docs[0]!
  // A published component with a pending edit (its draft twin), placed like the others.
  const edited = await payload.create({ collection: 'html_contents', data: { html: '<p>Bench live</p>', publishedAt: past } as never, depth: 0 })
  // The twin is made the way an editor makes it (the service alone may set the twin link).
  const draft = await fetch(`${base}/_api/component/html_contents/${edited.id}`, {
    method: 'PATCH',
    headers: { ...asAdmin, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ html: '<p>Bench pending edit</p>' }),
  })
  if (!draft.ok) throw new Error(`creating the bench draft answered ${draft.status}`)

  const targets: Target[] = [
    { name: 'entrypoint', path: '/_api/' },
    { name: 'page item (JSON-LD)', path: `/_api/_/pages/${page.id}` },
    { name: 'page item (Payload REST depth=1)', path: `/api/pages/${page.id}?depth=1` },
    { name: 'component item (JSON-LD)', path: `/_api/component/html_contents/${component.id}` },
    { name: 'component item (Payload REST depth=1)', path: `/api/html_contents/${component.id}?depth=1` },
    { name: '30-item collection (JSON-LD)', path: '/_api/component/html_contents?itemsPerPage=30' },
    { name: '30-item collection (Payload REST depth=1)', path: '/api/html_contents?limit=30&depth=1' },
    { name: 'published component, anonymous', path: `/_api/component/html_contents/${edited.id}`, expect: 'Bench live' },
    { name: 'published component, admin ?published=true', path: `/_api/component/html_contents/${edited.id}?published=true`, headers: asAdmin, expect: 'Bench live' },
    { name: 'component with a draft, admin (draft routing)', path: `/_api/component/html_contents/${edited.id}`, headers: asAdmin, expect: 'Bench pending edit' },
    { name: '30-item collection, admin (drafts routed)', path: '/_api/component/html_contents?itemsPerPage=30', headers: asAdmin },
    { name: 'route by path, anonymous', path: `/_api/_/routes/${encodeURIComponent('/blog')}`, expect: '"/_api/_/routes/' },
    { name: `routes collection (${BULK_ROUTES} routes), anonymous`, path: '/_api/_/routes', expect: '"totalItems"' },
    { name: `routes collection (${BULK_ROUTES} routes), admin`, path: '/_api/_/routes', headers: asAdmin, expect: '"totalItems"' },
    ...(['anonymous', 'admin'] as const).flatMap((caller) =>
      ([['5', structure.manifestSmall], ['50', structure.manifestLarge]] as const).map(([count, path]) => ({
        name: `manifest, 3 depths + layout, ${count} components, ${caller}`,
        path: `/_api/_/resource_manifest/${encodeURIComponent(path)}`,
        headers: caller === 'admin' ? asAdmin : undefined,
        expect: '"resource_iris"',
      })),
    ),
  ]

  const rows: string[][] = [['target', 'req/s', 'p50 ms', 'p99 ms', 'SQL queries']]
  for (const target of targets) {
    await idle()
    queryLog = []
    const check = await fetch(`${base}${target.path}`, { headers: target.headers })
    const body = await check.text()
    const queries = queryLog.length
    if (process.env.BENCH_SQL) console.log(target.name, queryLog.map((q) => q.slice(0, 140)))
    queryLog = null
    if (!check.ok) throw new Error(`${target.path} answered ${check.status}`)
    if (target.expect && !body.includes(target.expect)) throw new Error(`${target.name}: the body does not hold "${target.expect}"`)
    const result = await cannon({ url: `${base}${target.path}`, headers: target.headers, duration: DURATION, connections: CONNECTIONS })
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
    rows.push([
      target.name,
      result.requests.average.toFixed(0),
      String(result.latency.p50),
      String(result.latency.p99),
      String(queries),
    ])
  }

  // Publishing: each PATCH publishes another fresh draft, never the same one twice.
  for (const variant of ['new draft', 'draft of a published record'] as const) {
    const count = PUBLICATIONS
    const drafts: string[] = []
    for (let i = 0; i <= count; i++) drafts.push(await freshDraft(payload, variant, i))
    const publish = (id: string) => ({
      method: 'PATCH' as const,
      path: `/_api/component/html_contents/${id}`,
      headers: { ...asAdmin, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ publishedAt: past }),
    })
    // One publication alone, for its SQL query count and a check that it does publish.
    await idle()
    queryLog = []
    const one = publish(drafts.pop()!)
    const check = await fetch(`${base}${one.path}`, { method: one.method, headers: one.headers, body: one.body })
    const published = (await check.json()) as { _metadata?: { publishable?: { published?: boolean } } }
    const queries = queryLog.length
    queryLog = null
    if (check.status !== 200 || published._metadata?.publishable?.published !== true) throw new Error(`publish (${variant}) answered ${check.status}`)
    // Half the drafts one at a time (the latency of one publication), half with CONNECTIONS at once (throughput under contention).
    let next = 0
    for (const connections of [1, CONNECTIONS]) {
      const amount = Math.floor(drafts.length / 2)
      const result = await cannon({
        url: base,
        amount,
        connections,
        requests: [{ setupRequest: (request: CannonRequest) => ({ ...request, ...publish(drafts[next++]!) }) }],
      })
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`publish (${variant}): ${result.non2xx} non-2xx answers, ${result.errors} errors`)
      rows.push([
        `publish a ${variant} (PATCH publishedAt), ${connections} conn.`,
        result.requests.average.toFixed(0),
        String(result.latency.p50),
        String(result.latency.p99),
        String(queries),
      ])
      await idle()
    }
  }
  await idle()
  const upload = await measureUpload(base, asAdmin)
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '))
  console.log(`\n${DURATION}s per read target, ${PUBLICATIONS} publications per publish variant (half on 1 connection, half on ${CONNECTIONS}), ${CONNECTIONS} connections, Node ${process.version}`)
  console.log('SQL queries: of one request alone. Draft routing: "component with a draft, admin" against "published component, anonymous" (the same component).')
  console.log('Manifest: the SQL count is the same for 5 and for 50 components (recursive CTEs, no query per node).')
  console.log(
    `\nUpload of a ${upload.megapixels}-megapixel JPEG (${(upload.fileBytes / 1024 / 1024).toFixed(1)} MiB, multipart, with its thumbnail variant), ${upload.runs} runs: ` +
      `median ${upload.medianMs} ms, slowest ${upload.maxMs} ms; process resident memory ${upload.rssBeforeMiB} MiB before, peak ${upload.rssPeakMiB} MiB during the uploads (+${upload.rssPeakMiB - upload.rssBeforeMiB} MiB).`,
  )

  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  // Dropping the database terminates clients the pool still holds: that must not crash the run.
  ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
  await closePayload(payload)
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await measureTiming()
  process.exit(0)
}

interface Target {
  name: string
  path: string
  headers?: Record<string, string>
  /** Text the body must hold (that the right version is served). */
  expect?: string
}

/** An admin (publish permission by default) signed in through the JSON-LD API; returns the JWT. */
async function signIn(payload: Payload, base: string): Promise<string> {
  const username = 'bench_admin'
  const password = 'bench password, not a secret'
  await payload.create({
    collection: 'users',
    data: { username, email: 'bench@example.com', password, roles: ['ROLE_ADMIN'], enabled: true, emailAddressVerified: true } as never,
    depth: 0,
  })
  const response = await fetch(`${base}/_api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) })
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('api_component='))
  if (response.status !== 204 || !cookie) throw new Error(`bench login failed: ${response.status}`)
  return decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)
}

/** A draft to publish: a new one, or the pending edit of a published record (its twin). */
async function freshDraft(payload: Payload, variant: 'new draft' | 'draft of a published record', i: number): Promise<string> {
  let publishedResource: string | undefined
  if (variant !== 'new draft') {
    const live = await payload.create({ collection: 'html_contents', data: { html: `<p>Live ${i}</p>`, publishedAt: new Date(Date.now() - 60_000).toISOString() } as never, depth: 0 })
    publishedResource = String(live.id)
  }
  const draft = await payload.create({ collection: 'html_contents', data: { html: `<p>Draft ${i}</p>`, publishedResource } as never, depth: 0 })
  return String(draft.id)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
