import { createHash } from 'node:crypto'
import { HttpError } from './errors.js'

/**
 * Optimistic concurrency: the version a reader saw, sent back by a writer.
 * A record's version is its id and its `updatedAt` (every write moves it),
 * as an opaque token: `v` and 16 URL-safe characters. Reads carry it in
 * their ETag (JSON-LD: `W/"<version>.<body hash>"`, the body hash keeping
 * If-None-Match exact; Payload REST: `"<version>"`); a write's If-Match is
 * compared by the version part only, weak or strong (a cache may weaken a
 * tag on the way).
 */

export type Doc = Record<string, unknown>

/** The version token of a stored record, or null when it has no updatedAt (a type without timestamps). */
export function versionOf(doc: Doc | null | undefined): string | null {
  if (!doc || doc.id == null || doc.updatedAt == null || doc.updatedAt === '') return null
  const at = new Date(doc.updatedAt as string)
  if (Number.isNaN(at.getTime())) return null
  return `v${createHash('sha1')
    .update(`${String(doc.id)}|${at.toISOString()}`)
    .digest('base64url')
    .slice(0, 16)}`
}

/** What a writer says it read: `*` (any current version) or the versions named by its If-Match. */
export type ExpectedVersion = '*' | string[]

/**
 * The versions an If-Match header names (null without one). An entity tag
 * that is not one of ours matches nothing: the write is refused (412), as
 * RFC 9110 has it for a tag that is not current.
 */
export function expectedFromIfMatch(header: string | null | undefined): ExpectedVersion | null {
  if (header == null) return null
  const value = header.trim()
  if (value === '') return null
  if (value === '*') return '*'
  const out: string[] = []
  for (const raw of value.split(',')) {
    const tag = raw.trim().replace(/^W\//, '').replace(/^"|"$/g, '')
    out.push(tag.split('.')[0] ?? '')
  }
  return out
}

/** Whether a record at `version` is what the writer read. */
export const matches = (expected: ExpectedVersion, version: string | null): boolean =>
  expected === '*' ? version !== null : version !== null && expected.includes(version)

/** What changed under a writer, in its 412 body. */
export interface Conflict {
  /** `record`: the record addressed changed; `draft`: the write would go to a draft the writer has not read (created or saved since); `gone`: no longer there. */
  changed: 'record' | 'draft' | 'gone'
  /** The id of the record that changed. */
  id: string
  /** When it changed (its updatedAt), null when it is gone. */
  changedAt: string | null
  /** Its current version: read it again before writing. */
  currentVersion: string | null
}

/** 412 Precondition Failed: the record (or the draft a write is redirected to) changed since the writer read it. */
export class PreconditionFailed extends HttpError {
  constructor(
    message: string,
    readonly conflict: Conflict,
  ) {
    super(412, message)
    this.name = 'PreconditionFailed'
  }
}

const when = (at: string | null) => (at ? new Date(at).toISOString() : 'an unknown time')

/** The refusal of a write whose reader's version is no longer current. */
export function conflictError(changed: Conflict['changed'], doc: Doc | null, id: string): PreconditionFailed {
  const changedAt = doc?.updatedAt ? new Date(doc.updatedAt as string).toISOString() : null
  const conflict: Conflict = { changed, id: doc ? String(doc.id) : id, changedAt, currentVersion: versionOf(doc) }
  const message =
    changed === 'gone'
      ? 'This record no longer exists (it was published or deleted since you read it).'
      : changed === 'draft'
        ? `Your change would go to this record's draft, which holds changes you have not read (saved at ${when(changedAt)}): read the draft and apply your changes to it.`
        : `This record was changed at ${when(changedAt)}, after you read it: read it again and apply your changes to it.`
  return new PreconditionFailed(message, conflict)
}

/**
 * Checks a write against the writer's version of a record that has no draft
 * routing (a type that is not publishable). `current` is the stored record.
 */
export function assertCurrent(expected: ExpectedVersion | null, current: Doc | null, id: string): void {
  if (!expected) return
  if (!current) throw conflictError('gone', null, id)
  if (!matches(expected, versionOf(current))) throw conflictError('record', current, id)
}
