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
import { buildSiteConfig } from '../payload.config'
import { closePayload, loadJwtKeys } from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { startPayload } from '../src/server/bootstrap'
import { seedDemo } from '../src/seed/demo'
import { runLoad } from './cannon'
import { startFloor } from './floor'
import { printTable } from './report'
import { benchOrphans } from './orphans'
import { benchPagePublish } from './pagePublish'
import { explain, logQueries, type LoggedQuery } from './sqlLog'
import { BULK_ROUTES, setUpStructure } from './structure'
import { benchReadModel } from './readModel'
import { benchFrontEnd } from './frontEnd'
import { benchWebsite } from './website'
import { benchReadModelHostile } from './readModelHostile'
import { readTargets, type ReadTarget } from './targets'
import { measureTiming } from './timing'
import { measureUpload } from './upload'
import { measureLayers } from './layers'
import { benchAtScale } from './run/atScale'
import { benchPublishing } from './run/publishing'
import { type Measured, printReads } from './run/reads'
import { admin, CONNECTIONS, DB, DURATION, ONLY, PG, SCALE } from './run/settings'
import { signIn } from './signIn'
import { benchThroughVarnish } from './varnish'

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
  if (!ONLY || ONLY.test('website')) {
    await idle()
    printTable(await benchWebsite(`${PG}/${DB}`, { duration: DURATION, idle }))
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

  if (SCALE) await benchAtScale({ payload, base, asAdmin, targets, measured, probe, idle })

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

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
