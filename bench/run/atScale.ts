/**
 * `-- --scale`: seeds 10,000 pages with routes and 100,000 components (bench/scale.ts), then measures every read
 * target again beside its small-site run, with the tables a plan reads sequentially.
 */
import type { Payload } from 'payload'
import { emptyReadModel } from 'payload-cwa'
import { runLoad } from '../cannon'
import { benchReadModelAtScale } from '../readModelScale'
import { printTable } from '../report'
import { seedScale } from '../scale'
import { explain, type LoggedQuery } from '../sqlLog'
import type { ReadTarget } from '../targets'
import type { Measured } from './reads'
import { CONNECTIONS, DB, DURATION, ONLY, PG } from './settings'

export async function benchAtScale({
  payload,
  base,
  asAdmin,
  targets,
  measured,
  probe,
  idle,
}: {
  payload: Payload
  base: string
  asAdmin: Record<string, string>
  targets: ReadTarget[]
  measured: Measured[]
  probe: (target: ReadTarget) => Promise<LoggedQuery[]>
  idle: () => Promise<void>
}): Promise<void> {
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
