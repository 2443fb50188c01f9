/**
 * npm run bench: throughput and latency of the JSON-LD read paths next to
 * Payload's own REST API on the same documents, plus the SQL queries each
 * JSON-LD request makes. Runs against PostgreSQL (BENCH_PG_URL, default the
 * local server) on a fresh database; nothing here is a test.
 */
import autocannon from 'autocannon'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import { buildSiteConfig } from '../payload.config'
import { createApp } from '../src/server/app'
import { startPayload } from '../src/server/bootstrap'
import { seedDemo } from '../src/seed/demo'
import { loadJwtKeys } from '../src/session/keys'
import { closePayload } from '../src/utils/closePayload'

const PG = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '')
const DB = 'cwa_bench'
const DURATION = Number(process.env.BENCH_SECONDS ?? 5)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)

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
  for (let i = 0; i < 40; i++) {
    await payload.create({ collection: 'html_contents', data: { html: `<p>Bench content ${i}</p>` } as never, depth: 0 })
  }
  const keys = await loadJwtKeys(process.env)
  const app = createApp({ payload, keys })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const page = (await payload.find({ collection: 'pages', where: { reference: { equals: 'home' } }, depth: 0 })).docs[0]!
  const component = (await payload.find({ collection: 'html_contents', limit: 1, depth: 0 })).docs[0]!
  const targets: Array<{ name: string; path: string; jsonld: boolean }> = [
    { name: 'entrypoint', path: '/_api/', jsonld: true },
    { name: 'page item (JSON-LD)', path: `/_api/_/pages/${page.id}`, jsonld: true },
    { name: 'page item (Payload REST depth=1)', path: `/api/pages/${page.id}?depth=1`, jsonld: false },
    { name: 'component item (JSON-LD)', path: `/_api/component/html_contents/${component.id}`, jsonld: true },
    { name: 'component item (Payload REST depth=1)', path: `/api/html_contents/${component.id}?depth=1`, jsonld: false },
    { name: '30-item collection (JSON-LD)', path: '/_api/component/html_contents?itemsPerPage=30', jsonld: true },
    { name: '30-item collection (Payload REST depth=1)', path: '/api/html_contents?limit=30&depth=1', jsonld: false },
  ]

  const rows: string[][] = [['target', 'req/s', 'p50 ms', 'p99 ms', 'SQL queries']]
  for (const target of targets) {
    queryLog = []
    const check = await fetch(`${base}${target.path}`)
    await check.text()
    const queries = queryLog.length
    queryLog = null
    if (!check.ok) throw new Error(`${target.path} answered ${check.status}`)
    const result = await autocannon({ url: `${base}${target.path}`, duration: DURATION, connections: CONNECTIONS })
    rows.push([
      target.name,
      result.requests.average.toFixed(0),
      String(result.latency.p50),
      String(result.latency.p99),
      String(queries),
    ])
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '))
  console.log(`\n${DURATION}s per target, ${CONNECTIONS} connections, Node ${process.version}`)

  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await closePayload(payload)
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  process.exit(0)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
