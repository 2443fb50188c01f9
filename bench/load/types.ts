/**
 * What the load script (bench/load.ts, the server side) and its load
 * generator (bench/load/generator.ts, a child process) tell each other.
 */

export type ReadKind = 'route' | 'manifest' | 'page' | 'component' | 'collection'
export type WriteKind = 'edit' | 'create' | 'publish'
export type RequestKind = ReadKind | WriteKind

export const READ_KINDS: ReadKind[] = ['route', 'manifest', 'page', 'component', 'collection']
export const WRITE_KINDS: WriteKind[] = ['edit', 'create', 'publish']

/** Sent to the generator: where to send what. */
export interface LoadPlan {
  base: string
  seconds: number
  connections: number
  /** Seconds before a request without an answer is given up (and counted unanswered). */
  timeout: number
  /** Every how many requests of a connection one is an admin write (10: 10% writes). */
  writeEvery: number
  adminToken: string
  /** Anonymous GET paths per kind. */
  reads: Record<ReadKind, string[]>
  /** The JSON-LD collection path of the written component type (POST), its items under it. */
  componentPath: string
  /** Published components the writes edit, split between connections (each record is written by one connection only). */
  writable: Array<{ id: string; html: string }>
  /** A past date: PATCH publishedAt with it publishes. */
  past: string
}

/** A version of a record as the database must hold it after the run; `absent` when it must be gone. */
export type RecordState = { html: string; published: boolean; twin: string | null } | 'absent'

/** One violation of an invariant, said in a line. */
export interface Violation {
  invariant: string
  detail: string
}

export interface KindFigures {
  count: number
  statuses: Record<string, number>
  p50: number
  p99: number
}

/** Sent back by the generator when its run is over. */
export interface LoadOutcome {
  seconds: number
  /** autocannon's own figures over every request. */
  cannon: { total: number; average: number; p50: number; p99: number; errors: number; timeouts: number }
  kinds: Record<RequestKind, KindFigures>
  /** Every anonymous read together, and every admin write. */
  reads: { count: number; p50: number; p99: number }
  writes: { count: number; p50: number; p99: number }
  /** Requests that got no answer mid-run (timeout, reset): their outcome is unknown. */
  unanswered: number
  /** Requests still in flight when the time was up (outcome unknown, checked leniently). */
  cutOff: number
  /** Writes answered 2xx. */
  acknowledgedWrites: number
  /** Anonymous bodies scanned for drafts. */
  scannedBodies: number
  /** Anonymous reads of a record sent after one of its publications was acknowledged (checked for staleness). */
  staleChecked: number
  /** Acceptable final states per record id (several when a write's outcome is unknown). */
  expected: Array<[string, RecordState[]]>
  /** Violations seen by the generator itself (leaks, unexpected statuses): the first few of each invariant. */
  violations: Violation[]
  /** How many violations of each invariant the generator saw. */
  violationCounts: Record<string, number>
}
