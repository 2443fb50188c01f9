/**
 * npm run load: load and soak. Starts the reference site in this process on
 * a fresh database (LOAD_PG_URL, else BENCH_PG_URL, else the local server;
 * the database cwa_load_<pid> is dropped at the end), listening on loopback
 * only, and runs a bounded mixed workload against it from a child process
 * (bench/load/generator.ts, autocannon): 90% anonymous reads of routes by
 * path, resource manifests, pages and components, 10% admin writes (edits of
 * published components, which create or update their draft twins, new
 * drafts) and publications (PATCH publishedAt on drafts), for LOAD_SECONDS
 * (default 60) on LOAD_CONNECTIONS (default 50). Then it checks the
 * invariants (bench/load/invariants.ts), in SQL where they concern the
 * database, prints throughput, latencies and counts and one line per
 * invariant, and exits 1 when one fails. Nothing here is a test; the test
 * test/bench/load.test.ts runs it briefly.
 *
 * `-- --instances N` (or LOAD_INSTANCES): the same workload against N
 * instances of the start script on the one database, behind a round-robin
 * proxy on loopback (bench/load/instances.ts), one of them restarted
 * gracefully in the middle of the run; its figures are the instances' CPU.
 */
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { buildSiteConfig } from '../payload.config'
import { closePayload, loadJwtKeys } from 'payload-cwa'
import { createApp } from 'payload-cwa/express'
import { startPayload } from '../src/server/bootstrap'
import { seedDemo } from '../src/seed/demo'
import {
  lostWrites,
  publicationCounts,
  publishableTables,
  totalViolations,
  twinViolations,
  type ComponentRow,
} from './load/invariants'
import {
  cpuMsOf,
  type Instance,
  type Proxy,
  type Restart,
  rollingRestart,
  startInstance,
  startProxy,
  stopInstance,
} from './load/instances'
import { admin, dropLeftovers } from './load/database'
import { judge } from './load/report'
import { runGenerator } from './load/runGenerator'
import { CONNECTIONS, DB, INSTANCES, PG, SECONDS, TIMEOUT } from './load/settings'
import { setUpLoadSite } from './load/site'
import { signIn } from './signIn'

async function main(): Promise<void> {
  const started = performance.now()
  await dropLeftovers()
  // Ctrl-C: the database goes with the run.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`).finally(() => process.exit(130))
    })
  }
  await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  await admin(`CREATE DATABASE ${DB}`)
  process.env.CWA_DATA_DIR ??= '.data/load'
  let exitCode = 1
  const payload = await startPayload({ config: buildSiteConfig({ databaseUrl: `${PG}/${DB}` }), key: 'load' })
  const keys = await loadJwtKeys(process.env)
  // One in-process server, or the instances (started after the seed) behind their proxy.
  const server = INSTANCES ? null : createApp({ payload, keys }).listen(0, '127.0.0.1')
  if (server) await new Promise((resolve) => server.once('listening', resolve))
  const instances: Instance[] = []
  let proxy: Proxy | null = null
  // The instances share this run's data directory: its JWT keys and Payload secret.
  // Several instances on one database: no embedded Mercure hub (it serves one instance and refuses a second).
  const instanceEnv = {
    DATABASE_URL: `${PG}/${DB}`,
    CWA_DATA_DIR: path.resolve(process.env.CWA_DATA_DIR),
    MERCURE_EMBEDDED: '0',
  }
  try {
    await seedDemo(payload, { apiPrefix: '/_api' })
    // Two published components per connection to edit (at least 20).
    const site = await setUpLoadSite(payload, Math.max(20, 2 * CONNECTIONS))
    let inFlight = 0
    server?.on('request', (_req, res) => {
      inFlight++
      res.once('close', () => inFlight--)
    })
    if (INSTANCES) {
      // Together, as a deploy starts them: the start-up lock takes them in turn.
      instances.push(
        ...(await Promise.all(
          Array.from({ length: INSTANCES }, (_, i) => startInstance(`instance ${i + 1}`, instanceEnv)),
        )),
      )
      proxy = await startProxy(instances)
    }
    const base = proxy ? proxy.base : `http://127.0.0.1:${(server!.address() as AddressInfo).port}`
    const adminToken = await signIn(payload, base, 'load')

    // Every read target answers anonymously before the run: a wrong target is a setup error, not a finding.
    for (const paths of Object.values(site.reads)) {
      for (const target of paths) {
        const response = await fetch(`${base}${target}`, { headers: { accept: 'application/ld+json' } })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`read target ${target} answered ${response.status} before the run`)
      }
    }

    const setUp = ((performance.now() - started) / 1000).toFixed(0)
    console.log(
      `npm run load: ${SECONDS} s, ${CONNECTIONS} connections, ${INSTANCES ? `${INSTANCES} instances behind a round-robin proxy on ${base}` : `server on ${base}`} (loopback only), database ${DB}, generator in a child process, Node ${process.version} (set-up ${setUp} s)`,
    )
    const cpuBefore = process.cpuUsage()
    const instancesCpuBefore = instances.map((i) => cpuMsOf(i.child.pid))
    ;(globalThis as { gc?: () => void }).gc?.()
    const memoryBefore = process.memoryUsage()
    // Several instances: the first is restarted gracefully half way through the run.
    let restart: Promise<Restart> | null = null
    const restartTimer =
      instances.length > 1
        ? setTimeout(() => (restart = rollingRestart(instances[0]!, instanceEnv)), (SECONDS * 1000) / 2)
        : null
    const outcome = await runGenerator({
      base,
      seconds: SECONDS,
      connections: CONNECTIONS,
      timeout: TIMEOUT,
      writeEvery: 10,
      adminToken,
      reads: site.reads,
      componentPath: '/_api/component/html_contents',
      writable: site.writable,
      past: new Date(Date.now() - 60_000).toISOString(),
    })
    // Requests cut off when the time was up may still run on the server: the checks wait for them.
    await new Promise((resolve) => setTimeout(resolve, 300))
    while (inFlight > 0 || instances.some((i) => i.inFlight > 0))
      await new Promise((resolve) => setTimeout(resolve, 20))
    if (restartTimer) clearTimeout(restartTimer)
    const restarted = restart ? await (restart as Promise<Restart>) : null
    // A restarted instance: its first process up to the signal, then the new one.
    const cpuOf = (instance: Instance, n: number) =>
      n === 0 && restarted
        ? restarted.stoppedCpuMs - (instancesCpuBefore[0] ?? 0) + cpuMsOf(instance.child.pid)
        : cpuMsOf(instance.child.pid) - (instancesCpuBefore[n] ?? 0)
    const instancesCpu = instances.map(cpuOf)
    const instancesCpuMs = instancesCpu.reduce((total, ms) => total + ms, 0)
    const cpu = process.cpuUsage(cpuBefore)
    // What stays in use, not what a lazy collector has not swept yet (node --expose-gc: LOAD_GC=1).
    ;(globalThis as { gc?: () => void }).gc?.()
    const memoryAfter = process.memoryUsage()

    const client = new pg.Client({ connectionString: `${PG}/${DB}` })
    await client.connect()
    try {
      const ids = outcome.expected.map(([id]) => id)
      const { rows } = await client.query<ComponentRow>(
        'SELECT id::text, html, published_at, published_resource_id::text FROM _acb_html_contents WHERE id = ANY($1::uuid[])',
        [ids],
      )
      const tables = await publishableTables(client)
      const readTotal = async (path: string, asAdmin: boolean) => {
        const response = await fetch(`${base}${path}`, {
          headers: asAdmin ? { authorization: `Bearer ${adminToken}` } : {},
        })
        return {
          status: response.status,
          totalItems: response.ok ? ((await response.json()) as { totalItems?: number }).totalItems : undefined,
        }
      }
      const sqlViolations = [
        ...lostWrites(outcome.expected, rows),
        ...(await twinViolations(client, tables)),
        ...(await totalViolations(client, readTotal)),
      ]
      const counts = await publicationCounts(client, tables)
      const answered = Object.values(outcome.kinds).reduce((total, figures) => total + figures.count, 0)
      if (restarted && restarted.exitCode !== 0)
        sqlViolations.push({
          invariant: 'every request answered as expected',
          detail: `${restarted.label} exited ${restarted.exitCode} on SIGTERM (a graceful stop exits 0)`,
        })
      const serverCpuMs = INSTANCES ? instancesCpuMs : (cpu.user + cpu.system) / 1000
      const report = judge(outcome, sqlViolations, {
        cpuMsPerRequest: answered ? serverCpuMs / answered : 0,
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        rssMb: [memoryBefore.rss / 2 ** 20, memoryAfter.rss / 2 ** 20],
        heapMb: [memoryBefore.heapUsed / 2 ** 20, memoryAfter.heapUsed / 2 ** 20],
        ...counts,
        tables: tables.length,
        checkedRecords: ids.length,
      })
      if (INSTANCES)
        report.lines.splice(
          1,
          0,
          `instances: ${INSTANCES} (CPU during the run: ${instances.map((i, n) => `${i.label} ${(instancesCpu[n]! / 1000).toFixed(1)} s`).join(', ')}); ` +
            `the proxy sent ${proxy!.retried()} request(s) again after a connection failed; ` +
            (restarted
              ? `${restarted.label} restarted gracefully mid-run: out of the rotation, drained in ${restarted.drainedMs} ms, SIGTERM, exit ${restarted.exitCode}, back in ${(restarted.downMs / 1000).toFixed(1)} s`
              : 'no restart (one instance)'),
        )
      for (const line of report.lines) console.log(line)
      exitCode = report.ok ? 0 : 1
    } finally {
      await client.end()
    }
  } finally {
    await proxy?.close()
    await Promise.all(instances.map((i) => stopInstance(i)))
    if (server) {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
    // Dropping the database terminates clients the pool still holds: that must not crash the run.
    ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
    await closePayload(payload)
    await admin(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`)
  }
  process.exit(exitCode)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
