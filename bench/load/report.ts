/**
 * What `npm run load` prints: the figures of the run, then one line per
 * invariant ("invariant <name>: ok (...)" or "invariant <name>: FAILED (n)"
 * followed by the first violations), then the verdict.
 */
import type { LoadOutcome, RequestKind, Violation } from './types'
import { READ_KINDS, WRITE_KINDS } from './types'

export const INVARIANTS = [
  'no 5xx',
  'no lost write',
  'one published twin per record',
  'no draft returned to an anonymous request',
  'no stale anonymous read after a committed write',
  'every request answered as expected',
  'collection totals match the rows',
] as const

export interface ServerFigures {
  cpuMsPerRequest: number
  peakRssMb: number
  /** Before and after the run (a soak shows growth here). */
  rssMb: [number, number]
  heapMb: [number, number]
  published: number
  drafts: number
  twins: number
  tables: number
  checkedRecords: number
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  )
}

function sum(outcome: LoadOutcome, kinds: RequestKind[]): number {
  return kinds.reduce((total, kind) => total + outcome.kinds[kind].count, 0)
}

/** The report lines and whether every invariant holds. */
export function judge(
  outcome: LoadOutcome,
  sqlViolations: Violation[],
  server: ServerFigures,
): { lines: string[]; ok: boolean } {
  const answered = sum(outcome, [...READ_KINDS, ...WRITE_KINDS])
  const lines: string[] = []
  lines.push(
    `throughput: ${(answered / outcome.seconds).toFixed(0)} req/s (${answered} answered in ${outcome.seconds.toFixed(1)} s); ` +
      `autocannon: ${outcome.cannon.average.toFixed(0)} req/s average, p50 ${outcome.cannon.p50} ms, p99 ${outcome.cannon.p99} ms, ` +
      `${outcome.cannon.errors} errors, ${outcome.cannon.timeouts} timeouts`,
  )
  const rows = [['kind', 'count', 'p50 ms', 'p99 ms', 'statuses']]
  for (const kind of [...READ_KINDS, ...WRITE_KINDS]) {
    const figures = outcome.kinds[kind]
    const statuses = Object.entries(figures.statuses)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ')
    const label = (READ_KINDS as string[]).includes(kind) ? `anonymous ${kind}` : `admin ${kind}`
    rows.push([label, String(figures.count), String(figures.p50), String(figures.p99), statuses])
  }
  lines.push(...table(rows))
  const reads = sum(outcome, READ_KINDS)
  const writes = sum(outcome, WRITE_KINDS)
  lines.push(
    `reads ${reads} (p50 ${outcome.reads.p50} ms, p99 ${outcome.reads.p99} ms), writes ${writes} (p50 ${outcome.writes.p50} ms, p99 ${outcome.writes.p99} ms): ` +
      `${answered ? ((100 * writes) / answered).toFixed(1) : '0'}% writes, ${outcome.acknowledgedWrites} acknowledged`,
  )
  const mb = ([before, after]: [number, number]) => `${before.toFixed(0)} → ${after.toFixed(0)} MB`
  lines.push(
    `server: ${server.cpuMsPerRequest.toFixed(2)} ms CPU per request; RSS ${mb(server.rssMb)} (peak ${server.peakRssMb.toFixed(0)} MB), heap used ${mb(server.heapMb)}`,
  )
  lines.push(
    `database after the run: ${server.published} published records, ${server.drafts} drafts (${server.twins} of them twins of a published record) in ${server.tables} publishable tables`,
  )

  const counts = new Map<string, number>(Object.entries(outcome.violationCounts))
  for (const violation of sqlViolations) counts.set(violation.invariant, (counts.get(violation.invariant) ?? 0) + 1)
  const samples = [...outcome.violations, ...sqlViolations]
  const status5xx = [...READ_KINDS, ...WRITE_KINDS].reduce(
    (total, kind) =>
      total +
      Object.entries(outcome.kinds[kind].statuses).reduce(
        (n, [status, count]) => n + (Number(status) >= 500 ? count : 0),
        0,
      ),
    0,
  )
  const evidence: Record<(typeof INVARIANTS)[number], string> = {
    'no 5xx': `${status5xx} of ${answered} answers`,
    'no lost write': `${outcome.acknowledgedWrites} acknowledged writes, ${server.checkedRecords} records checked in SQL`,
    'one published twin per record': `${server.tables} publishable tables checked in SQL`,
    'no draft returned to an anonymous request': `${outcome.scannedBodies} anonymous bodies scanned`,
    'no stale anonymous read after a committed write': `${outcome.staleChecked} anonymous reads sent after a publication of their record was acknowledged`,
    'every request answered as expected': `${outcome.unanswered} unanswered, ${outcome.cutOff} cut off when the time was up`,
    'collection totals match the rows': 'HtmlContent, anonymous and admin, against SQL',
  }
  let failed = 0
  for (const invariant of INVARIANTS) {
    const count = counts.get(invariant) ?? 0
    if (count === 0) {
      lines.push(`invariant ${invariant}: ok (${evidence[invariant]})`)
      continue
    }
    failed++
    lines.push(`invariant ${invariant}: FAILED (${count} violations; ${evidence[invariant]})`)
    for (const sample of samples.filter((s) => s.invariant === invariant).slice(0, 10))
      lines.push(`  - ${sample.detail}`)
  }
  lines.push(
    failed === 0 ? 'load: every invariant holds' : `load: ${failed} invariant${failed === 1 ? '' : 's'} failed`,
  )
  return { lines, ok: failed === 0 }
}
