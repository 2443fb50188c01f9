import { sql, type Sql } from '../../../core/utils/sql.js'
import type { Payload, PayloadRequest } from 'payload'
import { emitWriteEvent } from '../../../core/events/index.js'
import { chainCtes, effectiveCte } from './graph.js'
import { columnOf, ident, runSql, tableOf } from './tables.js'

/** Serialises recomputations: each one then reads the tree as committed by the one before. */
const LOCK = sql`SELECT pg_advisory_xact_lock(hashtextextended('cwa:routes:effective_live_at', 0))`

/**
 * Stores every route's effective go-live date (one recursive CTE, one
 * UPDATE of the rows that change), inside the request's transaction. Run
 * after each write that can change one: a route created, deleted, or given
 * another liveAt or target; a page or page data record given another parent
 * or deleted. Nothing runs at a go-live moment: reads compare with now.
 * Each route whose date changed is a changed record (a write event), beside
 * the record whose write caused it.
 */
export async function recomputeEffectiveLiveAt(payload: Payload, req?: PayloadRequest): Promise<void> {
  await runSql(payload, LOCK, req)
  const changed = await runSql<{ id: string }>(payload, sql`${effectiveLiveAtUpdate(payload)} RETURNING r.id`, req)
  if (req) for (const { id } of changed) await emitWriteEvent(req, { type: 'update', collection: 'routes', id })
}

/** The UPDATE storing every route's effective go-live date (also run by the migration adding the column). */
export function effectiveLiveAtUpdate(payload: Payload): Sql {
  const stored = columnOf(payload, 'routes', 'effectiveLiveAt')
  return sql`WITH RECURSIVE ${chainCtes(payload)}, ${effectiveCte()}
    UPDATE ${ident(tableOf(payload, 'routes'))} r SET ${stored} = e.effective_live_at
    FROM effective e
    WHERE r.id = e.route_id AND r.${stored} IS DISTINCT FROM e.effective_live_at`
}

/** One route's stored effective go-live date (ISO), read in the request's transaction. */
export async function storedEffectiveLiveAt(req: PayloadRequest, id: string): Promise<string | null> {
  const rows = await runSql<{ at: Date | string | null }>(
    req.payload,
    sql`SELECT ${columnOf(req.payload, 'routes', 'effectiveLiveAt')} AS at FROM ${ident(tableOf(req.payload, 'routes'))} WHERE id = ${id}::uuid`,
    req,
  )
  const at = rows[0]?.at
  return at ? new Date(at).toISOString() : null
}
