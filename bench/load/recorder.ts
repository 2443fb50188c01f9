/** What the load's connections saw, over all of them: the states the records must end in, the draft windows, the
 * published versions, the violations, and per kind the statuses and latencies (bench/load/workload.ts fills it). */
import { DraftWindows, PublishedVersions } from './invariants'
import type { KindFigures, RecordState, RequestKind, Violation } from './types'
import { READ_KINDS, WRITE_KINDS } from './types'

/** Violations counted per invariant, with the first few kept to print. */
export class ViolationLog {
  readonly counts = new Map<string, number>()
  readonly samples: Violation[] = []

  add(violation: Violation): void {
    const count = (this.counts.get(violation.invariant) ?? 0) + 1
    this.counts.set(violation.invariant, count)
    if (count <= 10) this.samples.push(violation)
  }
}

/** What every connection saw, gathered for the checks. */
export class LoadRecorder {
  readonly windows = new DraftWindows()
  readonly versions = new PublishedVersions()
  readonly expected = new Map<string, RecordState[]>()
  readonly violations = new ViolationLog()
  readonly latencies = new Map<RequestKind, number[]>()
  readonly statuses = new Map<RequestKind, Map<number, number>>()
  unanswered = 0
  cutOff = 0
  acknowledgedWrites = 0
  scannedBodies = 0

  constructor() {
    for (const kind of [...READ_KINDS, ...WRITE_KINDS]) {
      this.latencies.set(kind, [])
      this.statuses.set(kind, new Map())
    }
  }

  /** A record the run starts with, published with `html`. */
  startsWith(id: string, html: string): void {
    this.expect(id, { html, published: true, twin: null })
    this.versions.initial(id, html)
  }

  /** The record must end in `state`. */
  expect(id: string, state: RecordState): void {
    this.expected.set(id, [state])
  }

  /** A write with no answer: the record may end in its former state or in `state`. */
  expectEither(id: string, state: RecordState): void {
    this.expected.set(id, [...(this.expected.get(id) ?? []), state])
  }

  figures(kind: RequestKind): KindFigures {
    return {
      ...this.percentiles([kind]),
      statuses: Object.fromEntries([...this.statuses.get(kind)!].map(([status, count]) => [String(status), count])),
    }
  }

  /** Count, p50 and p99 (ms) over the requests of these kinds together. */
  percentiles(kinds: RequestKind[]): { count: number; p50: number; p99: number } {
    const sorted = kinds.flatMap((kind) => this.latencies.get(kind)!).sort((a, b) => a - b)
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0)
    return { count: sorted.length, p50: Math.round(at(0.5)), p99: Math.round(at(0.99)) }
  }
}
