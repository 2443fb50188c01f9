import type { WriteEvent, WriteListener } from '../../core/events/index.js'
import { getRegistry } from '../../core/registry.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { tagsOfEvents } from '../httpCache/index.js'
import { publishableOf } from '../publishable/index.js'
import { containerIrisSql, containerRootsOf, reachTagsOf, routePathTagsOf } from '../routes/index.js'
import { afterCommit } from '../../core/transactions/index.js'
import { noteDropped, snapshotWithCommitted } from './dropped.js'
import { readModelReady, readModelTables } from './schema.js'
import { momentsOf } from './moments.js'

/**
 * A write drops the stored answers built from what it changed, in its own
 * transaction (a committing listener of the write events, on every API):
 * the tags are the HTTP cache's (each changed record, its type's
 * collection, the records its relationships point at before and after, the
 * structure holding it up to its pages, walked in SQL in the transaction so
 * the write's own changes count). One statement: it takes the tags' fence buckets
 * (so a fill under way cannot store an answer older than this write), then
 * deletes the answers, and records the moments the write scheduled
 * (moments.ts) (schema.ts). Once the write has committed, this process
 * knows which answers it dropped (dropped.ts).
 */
export const invalidateStoredAnswers: WriteListener = async (events, { payload, req }) => {
  if (!readModelReady(payload)) return
  // One moment for both decisions below: a date is either still to come (recorded as a moment) or come (the
  // record shows), never neither, even when it passes while this write runs.
  const now = Date.now()
  // A draft, before and after the write, was never in an anonymous answer: an editor's draft edits cost nothing here.
  const seen = events.filter((event) => !hiddenFromAnonymous(payload, event, now))
  const tags = [
    ...new Set([
      ...(seen.length === 0 ? [] : tagsOfEvents(payload, seen)),
      // What live routes reach, which the route gates' answers depend on: any write, drafts included, may change it.
      ...reachTagsOf(payload, events),
      // Which route answers a path (a `path` header resolved, a route read by path): routes are no drafts.
      ...routePathTagsOf(events),
    ]),
  ]
  const scheduled = momentsOf(payload, events, now)
  const roots = containerRootsOf(payload, seen)
  if (tags.length === 0 && scheduled.length === 0) return
  const { drop } = readModelTables(payload)
  // One statement: the structure holding the changed records (walked up in SQL, in this transaction) joins the tags.
  const rows = await runSql<{ write_xid: string; write_snapshot: string; dropped_at: Date; dropped_keys: string[] }>(
    payload,
    sql`SELECT * FROM ${sql.identifier(drop)}(array_cat(${sql.param(tags)}::text[], ${containerIrisSql(payload, roots)}), ${sql.param(scheduled)}::timestamptz[])`,
    req,
  )
  const dropped = rows[0]
  if (!dropped || dropped.dropped_keys.length === 0) return
  const snapshot = snapshotWithCommitted(dropped.write_snapshot, dropped.write_xid)
  if (snapshot === null) return
  // Known once the write has committed: a read before that must not take the write's snapshot as seeing it.
  await afterCommit(req, () =>
    noteDropped(payload, dropped.dropped_keys, { snapshot, computedAt: new Date(dropped.dropped_at) }),
  )
}

/**
 * Whether a change is of a draft that no anonymous answer shows, before or
 * after it: a record of a publishable type whose publication date had not
 * come, in its state before the transaction nor after it. A date that has
 * come shows the record: published, or, for a draft with a published twin,
 * taking the twin over at the next read (a scheduled moment that passed
 * while the write ran is such a date). A publication is a `publish` event.
 */
function hiddenFromAnonymous(
  payload: Parameters<WriteListener>[1]['payload'],
  event: WriteEvent,
  now: number,
): boolean {
  if (event.type === 'publish' || !event.doc) return false
  const resource = getRegistry(payload.config).bySlug(event.collection)
  const names = resource ? publishableOf(resource) : null
  if (!names) return false
  const shows = (doc: Record<string, unknown>) => {
    const at = doc[names.publishedAt]
    return (typeof at === 'string' || at instanceof Date) && new Date(at).getTime() <= now
  }
  if (shows(event.doc)) return false
  // A create has no state before; an update or delete without the state before cannot be judged.
  if (event.type === 'create') return true
  return !!event.previousDoc && !shows(event.previousDoc)
}
