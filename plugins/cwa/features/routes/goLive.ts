import type { PayloadRequest } from 'payload'
import { emitWriteEvent } from '../../core/events/index.js'
import { ident, runSql, tableOf } from './access/tables.js'
import { sql } from '../../core/utils/sql.js'

/**
 * Routes whose effective go-live moment (their own liveAt or an ancestor's)
 * came in (since, now]: nothing in the database changes at that moment
 * (reads compare with now), so each is announced as an `update` event for
 * caches and real-time subscribers. Returns their ids.
 */
export async function announceRoutesGoneLive(req: PayloadRequest, since: Date, now = new Date()): Promise<string[]> {
  const rows = await runSql<{ id: string }>(
    req.payload,
    sql`SELECT id FROM ${ident(tableOf(req.payload, 'routes'))}
      WHERE effective_live_at > ${since.toISOString()}::timestamptz AND effective_live_at <= ${now.toISOString()}::timestamptz`,
    req,
  )
  for (const { id } of rows) await emitWriteEvent(req, { type: 'update', collection: 'routes', id })
  return rows.map((row) => row.id)
}
