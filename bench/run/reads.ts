/** The read targets' table: JSON-LD beside Payload's REST and the floor, per connection count. */
import type { LoadResult } from '../cannon'
import { printTable } from '../report'
import type { LoggedQuery } from '../sqlLog'
import type { ReadTarget } from '../targets'
import { DURATION } from './settings'

export interface Measured {
  target: ReadTarget
  queries: LoggedQuery[]
  runs: Map<number, { api: LoadResult; rest?: LoadResult; floor?: LoadResult }>
}

export function printReads(measured: Measured[]): void {
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
