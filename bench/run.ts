/**
 * npm run bench: every JSON-LD read target beside the same documents through
 * Payload's REST API and beside the physical floor (bench/floor.ts), at 10
 * and at 50 connections, with the SQL queries of one request, the server's
 * CPU time per request and its peak memory; publishing a draft (queries,
 * latency at 1, 10 and 50 connections); `-- --scale` then seeds 10,000 pages
 * with routes and 100,000 components (bench/scale.ts) and measures every
 * read again. The anonymous reads also run through Varnish with the README's
 * VCL, from its cache (bench/varnish.ts). The load generator runs in a child process
 * (bench/cannonWorker.mjs), so it never shares the server's event loop.
 * Runs on a fresh database (BENCH_PG_URL, default the local server); nothing
 * here is a test. BENCH_SECONDS, BENCH_CONNECTIONS (a comma list),
 * BENCH_PUBLICATIONS size the runs; BENCH_ONLY (a regex of target names)
 * picks targets, BENCH_COMPARE=0 skips the REST and floor runs (for a
 * profile of the JSON-LD path alone), BENCH_PROFILE=<dir> writes a CPU profile
 * of each run (bench/cannon.ts); BENCH_SQL=1 prints each counted request's SQL, BENCH_EXPLAIN=1
 * its plans, BENCH_DUMP=<file> writes them (text and values) to a file and keeps the database for replaying them. Uploads (target name `upload`): a 12-megapixel JPEG uploaded
 * with its thumbnail variant, its time and the process's peak resident
 * memory during the uploads (bench/upload.ts).
 */
import { writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import pg from 'pg'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../payload.config'
import { closePayload, emptyReadModel, loadJwtKeys, PUBLISHABLE_TWIN_LINK } from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { startPayload } from '../src/server/bootstrap'
import { seedDemo } from '../src/seed/demo'
import { runLoad, type LoadResult } from './cannon'
import { startFloor } from './floor'
import { printTable } from './report'
import { seedScale } from './scale'
import { benchOrphans } from './orphans'
import { benchPagePublish } from './pagePublish'
import { explain, logQueries, type LoggedQuery } from './sqlLog'
import { BULK_ROUTES, setUpStructure } from './structure'
import { benchReadModel } from './readModel'
import { benchFrontEnd } from './frontEnd'
import { benchReadModelAtScale } from './readModelScale'
import { benchReadModelHostile } from './readModelHostile'
import { readTargets, type ReadTarget } from './targets'
import { measureTiming } from './timing'
import { measureUpload } from './upload'
import { measureLayers } from './layers'
import { benchThroughVarnish } from './varnish'

const PG = (process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432').replace(/\/+$/, '')
// Per process: two benches (two worktrees) at once must not drop each other's database.
const DB = `cwa_bench_${process.pid}`
const DURATION = Number(process.env.BENCH_SECONDS ?? 4)
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number)
/** Drafts published per publish variant and connection count (each PATCH publishes a fresh one). */
const PUBLICATIONS = Number(process.env.BENCH_PUBLICATIONS ?? 200)
const SCALE = process.argv.includes('--scale')
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null

async function admin(sql: string, database = 'postgres'): Promise<void> {
  const client = new pg.Client({ connectionString: `${PG}/${database}` })
  await client.connect()
  await client.query(sql)
  await client.end()
}

interface Measured {
  target: ReadTarget
  queries: LoggedQuery[]
  runs: Map<number, { api: LoadResult; rest?: LoadResult; floor?: LoadResult }>
}

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${DB}`)
  process.env.CWA_DATA_DIR ??= '.data/bench'
  // A shared lifetime (s-maxage), so Varnish stores the anonymous reads (bench/varnish.ts); direct reads pay the lifetime cap's queries.
  const payload = await startPayload({
    config: buildSiteConfig({ databaseUrl: `${PG}/${DB}`, options: { httpCache: { sharedMaxAge: 600 } } }),
    key: 'bench',
  })
  await seedDemo(payload, { apiPrefix: '/_api' })
  // HtmlContent is publishable: without publishedAt a Local API create is a draft that anonymous callers never see.
  const past = new Date(Date.now() - 60_000).toISOString()
  for (let i = 0; i < 40; i++) {
    await payload.create({
      collection: 'html_contents',
      data: { html: `<p>Bench content ${i}</p>`, publishedAt: past } as never,
      depth: 0,
    })
  }
  const structure = await setUpStructure(payload)
  // A live site's tables have planner statistics (autovacuum analyzes a table within a minute of its
  // first 50 rows); tables seeded a moment ago have none, and their plans are ones no site runs.
  await admin(`ANALYZE`, DB)
  const keys = await loadJwtKeys(process.env)
  const app = createApp({ payload, keys })
  const server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const floor = await startFloor(`${PG}/${DB}`)
  let inFlight = 0
  server.on('request', (_req, res) => {
    inFlight++
    res.once('close', () => inFlight--)
  })
  /** Waits for requests the load generator sent just before it stopped, so the next query count is one request's. */
  const idle = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    while (inFlight > 0) await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const adminToken = await signIn(payload, base)
  const asAdmin = { authorization: `Bearer ${adminToken}` }

  const page = (await payload.find({ collection: 'pages', where: { reference: { equals: 'home' } }, depth: 0 }))
    .docs[0]!
  const component = (
    await payload.find({ collection: 'html_contents', where: { publishedAt: { exists: true } }, limit: 1, depth: 0 })
  ).docs[0]!
  // A published component with a pending edit (its draft twin), made the way an editor makes it.
  const edited = await payload.create({
    collection: 'html_contents',
    data: { html: '<p>Bench live</p>', publishedAt: past } as never,
    depth: 0,
  })
  const draft = await fetch(`${base}/_api/component/html_contents/${edited.id}`, {
    method: 'PATCH',
    headers: { ...asAdmin, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ html: '<p>Bench pending edit</p>' }),
  })
  if (!draft.ok) throw new Error(`creating the bench draft answered ${draft.status}`)

  const allTargets = readTargets({
    page: String(page.id),
    component: String(component.id),
    edited: String(edited.id),
    manifestSmall: structure.manifestSmall,
    manifestLarge: structure.manifestLarge,
    bulkRoutes: BULK_ROUTES,
    admin: asAdmin,
  })
  const targets = allTargets.filter((t) => !ONLY || ONLY.test(t.name))

  /** One request alone, after one that warms what is kept between requests: its SQL (and a check that it answers what it should). */
  const probe = async (target: ReadTarget): Promise<LoggedQuery[]> => {
    await idle()
    await (await fetch(`${base}${target.path}`, { headers: target.headers })).arrayBuffer()
    const { result, queries } = await logQueries(async () => {
      const response = await fetch(`${base}${target.path}`, { headers: target.headers })
      return { status: response.status, body: await response.text() }
    })
    if (result.status !== 200) throw new Error(`${target.path} answered ${result.status}`)
    if (target.expect && !result.body.includes(target.expect))
      throw new Error(`${target.name}: the body does not hold "${target.expect}"`)
    if (process.env.BENCH_SQL)
      console.log(
        target.name,
        queries.map((q) => `${q.ms.toFixed(1)} ms  ${q.text.slice(0, 160)}`),
      )
    if (process.env.BENCH_EXPLAIN)
      for (const plan of await explain(`${PG}/${DB}`, queries)) console.log(`${target.name}\n${plan}\n`)
    if (process.env.BENCH_DUMP)
      dumped.push({
        target: target.name,
        database: `${PG}/${DB}`,
        queries: queries.map(({ text, values }) => ({ text, values })),
      })
    return queries
  }

  const dumped: unknown[] = []
  const measured: Measured[] = []
  for (const target of targets) {
    const queries = await probe(target)
    const runs: Measured['runs'] = new Map()
    for (const connections of CONNECTIONS) {
      const load = { connections, duration: DURATION, headers: target.headers }
      await idle()
      const api = await runLoad({ ...load, url: `${base}${target.path}`, label: `${target.name} ${connections}` })
      await idle()
      const compare = process.env.BENCH_COMPARE !== '0'
      const rest = compare && target.rest ? await runLoad({ ...load, url: `${base}${target.rest}` }) : undefined
      const floorRun =
        compare && target.floor
          ? await runLoad({ ...load, headers: undefined, url: `${floor.url}${target.floor}` })
          : undefined
      runs.set(connections, { api, rest, floor: floorRun })
    }
    measured.push({ target, queries, runs })
  }
  printReads(measured)

  const direct = new Map(measured.map((m) => [m.target.name, m.runs.get(CONNECTIONS[0]!)?.api.rps ?? 0]))
  await idle()
  const varnishRows = await benchThroughVarnish(base, targets, {
    connections: CONNECTIONS[0]!,
    duration: DURATION,
    direct,
  })
  if (varnishRows.length > 0) {
    printTable(varnishRows)
    console.log(
      'Via Varnish: the README VCL in front, every answer a cache hit; "SQL during the run": queries the service received meanwhile (0: it was never asked).',
    )
  }

  const publishRows = ONLY && !ONLY.test('publish') ? [] : await benchPublishing(payload, base, asAdmin, past, idle)
  if (publishRows.length > 0) printTable(publishRows)
  if (!ONLY || ONLY.test('upload')) {
    await idle()
    const upload = await measureUpload(base, asAdmin)
    console.log(
      `\nupload: a ${upload.megapixels}-megapixel JPEG (${(upload.fileBytes / 1024 / 1024).toFixed(1)} MiB, multipart, with its thumbnail variant), ${upload.runs} runs: ` +
        `median ${upload.medianMs} ms, slowest ${upload.maxMs} ms; server process resident memory ${upload.rssBeforeMiB} MiB before, peak ${upload.rssPeakMiB} MiB during the uploads (+${upload.rssPeakMiB - upload.rssBeforeMiB} MiB).`,
    )
  }
  if (!ONLY || ONLY.test('layers')) {
    await idle()
    printTable(
      await measureLayers(payload, `${PG}/${DB}`, base, { page: String(page.id), component: String(component.id) }),
    )
    console.log('Layers: what each adds bounds every request built on it (bench/layers.ts).')
  }
  if (!ONLY || ONLY.test('orphans')) printTable(await benchOrphans(payload, `${PG}/${DB}`))
  if (!ONLY || ONLY.test('page publish')) printTable(await benchPagePublish(payload, base, asAdmin))
  if (!ONLY || ONLY.test('front end')) {
    await idle()
    printTable(await benchFrontEnd(`${PG}/${DB}`, { connections: CONNECTIONS, duration: DURATION, idle }))
    console.log(
      "Front end: every request the CWA Nuxt module sends to render the demo's home, blog and first article, anonymous, with compat: 'cwa-nuxt' (bench/frontEnd.ts); x path: pages/s over Payload's path (the read model off).",
    )
  }
  if (!ONLY || ONLY.test('read model')) {
    await idle()
    printTable(
      await benchReadModel(
        payload,
        `${PG}/${DB}`,
        base,
        floor.url,
        allTargets,
        asAdmin,
        `/_api/component/html_contents/${component.id}`,
      ),
    )
    console.log(
      "Read model: one request at a time (p50 in ms): stored = served from the store; miss = the first read after a write through this instance; Payload's path = today's read after the same write (the same instance, the read model off for that request); the same two after a write through another instance (bench/readModel.ts).",
    )
  }
  if (!ONLY || ONLY.test('read model hostile')) {
    await idle()
    printTable(await benchReadModelHostile(payload, base))
    console.log(
      "Read model under hostile reads: one-shot made-up reads of the site's resources (query strings, escaped spellings, Host and path headers), then as many sent twice each; the store's size and the site's reads served from it after each (bench/readModelHostile.ts).",
    )
  }
  const peakMb = process.resourceUsage().maxRSS / 1024
  console.log(
    `\nServer process: peak RSS ${peakMb.toFixed(0)} MB (Payload, the floor server and this harness; the load generator runs apart). Node ${process.version}.`,
  )

  if (SCALE) {
    const small = new Map(measured.map((m) => [m.target.name, m]))
    const seeded = await seedScale(payload, `${PG}/${DB}`)
    console.log(
      `\n--scale: seeded ${seeded.pages} pages with routes, ${seeded.components} components and positions in ${(seeded.ms / 1000).toFixed(1)} s`,
    )
    // Seeded in SQL, past every API: answers stored before it are stale (as after any change in plain SQL).
    await emptyReadModel(payload)
    const rows: string[][] = [
      ['target', 'small p50', 'scale p50', 'ratio', 'small SQL', 'scale SQL', 'not index lookups'],
    ]
    for (const target of targets) {
      const queries = await probe(target)
      await idle()
      const run = await runLoad({
        url: `${base}${target.path}`,
        connections: CONNECTIONS[0]!,
        duration: DURATION,
        headers: target.headers,
      })
      const before = small.get(target.name)!
      const p50 = before.runs.get(CONNECTIONS[0]!)!.api.p50
      const scans = (await explain(`${PG}/${DB}`, queries)).flatMap((plan) =>
        [...plan.matchAll(/Seq Scan on (\S+)/g)].map((m) => m[1]!),
      )
      rows.push([
        target.name,
        String(p50),
        String(run.p50),
        (run.p50 / Math.max(p50, 1)).toFixed(2),
        String(before.queries.length),
        String(queries.length),
        [...new Set(scans)].join(' ') || '-',
      ])
    }
    printTable(rows)
    console.log(
      'p50 in ms at',
      CONNECTIONS[0],
      'connections. "not index lookups": tables a plan reads sequentially (their EXPLAIN: BENCH_EXPLAIN=1 BENCH_ONLY=<target> npm run bench -- --scale).',
    )
    if (!ONLY || ONLY.test('read model')) {
      await idle()
      printTable(await benchReadModelAtScale(payload, `${PG}/${DB}`, base, asAdmin))
    }
  }

  await floor.close()
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  // Dropping the database terminates clients the pool still holds: that must not crash the run.
  ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
  await closePayload(payload)
  if (process.env.BENCH_DUMP) {
    // The probed statements and the database they ran on, kept for replaying them by hand (EXPLAIN, plan cache).
    writeFileSync(process.env.BENCH_DUMP, JSON.stringify(dumped, null, 2))
    console.log(`statements written to ${process.env.BENCH_DUMP}; database ${DB} kept`)
  } else await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  if (!ONLY) await measureTiming()
  process.exit(0)
}

function printReads(measured: Measured[]): void {
  const rows: string[][] = [
    [
      'target',
      'conn',
      'req/s',
      'p50 ms',
      'p99 ms',
      'SQL',
      'CPU ms/req',
      'REST req/s',
      'REST CPU',
      'x REST',
      'floor p50',
      'floor CPU',
      'p50 / floor',
      'x route-by-path p50',
    ],
  ]
  const byName = new Map(measured.map((m) => [m.target.name, m]))
  for (const { target, queries, runs } of measured) {
    for (const [connections, { api, rest, floor }] of runs) {
      const against = target.against ? byName.get(target.against)?.runs.get(connections)?.api : undefined
      rows.push([
        target.name,
        String(connections),
        api.rps.toFixed(0),
        String(api.p50),
        String(api.p99),
        String(queries.length),
        api.cpuMs.toFixed(2),
        rest ? rest.rps.toFixed(0) : '-',
        rest ? rest.cpuMs.toFixed(2) : '-',
        rest ? (api.rps / rest.rps).toFixed(2) : '-',
        floor ? String(floor.p50) : '-',
        floor ? floor.cpuMs.toFixed(2) : '-',
        floor ? (api.p50 / Math.max(floor.p50, 1)).toFixed(2) : '-',
        against ? (api.p50 / Math.max(against.p50, 1)).toFixed(2) : '-',
      ])
    }
  }
  printTable(rows)
  console.log(
    `\n${DURATION}s per run. SQL: queries of one request alone (the second in a row: what is kept between requests is warm). "x REST": JSON-LD req/s over Payload REST's on the same documents (goal >= 1.2).`,
  )
  console.log(
    '"p50 / floor": JSON-LD p50 over the floor\'s (the same rows, hand-written SQL, JSON.stringify; goal <= 3). p50 below 1 ms counts as 1 ms.',
  )
}

/** Publishing fresh drafts: the SQL of one publication, then latency at 1, 10 and 50 connections. */
async function benchPublishing(
  payload: Payload,
  base: string,
  asAdmin: Record<string, string>,
  past: string,
  idle: () => Promise<void>,
): Promise<string[][]> {
  const rows: string[][] = [['publish', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'SQL', 'CPU ms/req']]
  const publish = (id: string) => ({
    method: 'PATCH',
    path: `/_api/component/html_contents/${id}`,
    headers: { ...asAdmin, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ publishedAt: past }),
  })
  for (const variant of ['new draft', 'draft of a published record'] as const) {
    await idle()
    const firstDraft = await freshDraft(payload, variant, 0)
    const one = publish(firstDraft)
    const { result, queries } = await logQueries(async () => {
      const response = await fetch(`${base}${one.path}`, { method: one.method, headers: one.headers, body: one.body })
      return {
        status: response.status,
        body: (await response.json()) as { _metadata?: { publishable?: { published?: boolean } } },
      }
    })
    if (result.status !== 200 || result.body._metadata?.publishable?.published !== true)
      throw new Error(`publish (${variant}) answered ${result.status}`)
    // A draft with a twin hands its content over and goes.
    const draftLeft = (await payload.count({ collection: 'html_contents', where: { id: { equals: firstDraft } } }))
      .totalDocs
    if (draftLeft !== (variant === 'new draft' ? 1 : 0))
      throw new Error(`publish (${variant}): the draft is ${draftLeft ? 'still there' : 'gone'}`)
    if (process.env.BENCH_SQL)
      console.log(
        `publish ${variant}`,
        queries.map((q) => `${q.ms.toFixed(1)} ms  ${q.text.slice(0, 160)}`),
      )
    for (const connections of [1, ...CONNECTIONS]) {
      const drafts: string[] = []
      for (let i = 0; i < Math.max(PUBLICATIONS, connections); i++)
        drafts.push(await freshDraft(payload, variant, i + 1))
      await idle()
      const run = await runLoad({
        url: base,
        connections,
        amount: drafts.length,
        requests: drafts.map(publish),
        label: `publish ${variant} ${connections}`,
      })
      rows.push([
        `a ${variant}`,
        String(connections),
        run.rps.toFixed(0),
        String(run.p50),
        String(run.p99),
        String(queries.length),
        run.cpuMs.toFixed(2),
      ])
    }
  }
  return rows
}

/** An admin (publish permission by default) signed in through the JSON-LD API; returns the JWT. */
async function signIn(payload: Payload, base: string): Promise<string> {
  const username = 'bench_admin'
  const password = 'bench password, not a secret'
  await payload.create({
    collection: 'users',
    data: {
      username,
      email: 'bench@example.com',
      password,
      roles: ['ROLE_ADMIN'],
      enabled: true,
      emailAddressVerified: true,
    } as never,
    depth: 0,
  })
  const response = await fetch(`${base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  })
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('api_component='))
  if (response.status !== 204 || !cookie) throw new Error(`bench login failed: ${response.status}`)
  return decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)
}

/** A draft to publish: a new one, or the pending edit of a published record (its twin). */
async function freshDraft(
  payload: Payload,
  variant: 'new draft' | 'draft of a published record',
  i: number,
): Promise<string> {
  let publishedResource: string | undefined
  if (variant !== 'new draft') {
    const live = await payload.create({
      collection: 'html_contents',
      data: { html: `<p>Live ${i}</p>`, publishedAt: new Date(Date.now() - 60_000).toISOString() } as never,
      depth: 0,
    })
    publishedResource = String(live.id)
  }
  // Only the service links twins: the context lets this create keep its link (without it the draft would have no twin).
  const draft = await payload.create({
    collection: 'html_contents',
    data: { html: `<p>Draft ${i}</p>`, publishedResource } as never,
    context: { [PUBLISHABLE_TWIN_LINK]: true },
    depth: 0,
  })
  if (publishedResource && String((draft as { publishedResource?: unknown }).publishedResource) !== publishedResource)
    throw new Error('bench: the draft was not linked to its published twin')
  return String(draft.id)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
