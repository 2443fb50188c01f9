import type { WriteListener } from '../../core/events/index.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { containersOf, tagsOfEvents } from '../httpCache/index.js'
import { readModelReady, readModelTables } from './schema.js'
import { momentsOf } from './moments.js'
import { bucketsOf } from './tags.js'

/**
 * A write drops the stored answers built from what it changed, in its own
 * transaction (a committing listener of the write events, on every API):
 * the tags are the HTTP cache's (each changed record, its type's
 * collection, the records its relationships point at before and after, the
 * structure holding it up to its pages), read in the transaction so the
 * write's own changes count. One call: it takes the tags' fence buckets
 * (so a fill under way cannot store an answer older than this write), then
 * deletes the answers, and records the moments the write scheduled
 * (moments.ts) (schema.ts).
 */
export const invalidateStoredAnswers: WriteListener = async (events, { payload, req }) => {
  if (!readModelReady(payload)) return
  const tags = [...new Set([...tagsOfEvents(payload, events), ...(await containersOf(payload, events, req))])]
  const scheduled = momentsOf(payload, events)
  if (tags.length === 0 && scheduled.length === 0) return
  const { invalidate } = readModelTables(payload)
  await runSql(
    payload,
    sql`SELECT ${sql.identifier(invalidate)}(${sql.param(tags)}::text[], ${sql.param(bucketsOf(tags))}::integer[], ${sql.param(scheduled)}::timestamptz[])`,
    req,
  )
}
