import type { Payload, PayloadRequest } from 'payload'
import type { RecordRef } from './descendants.js'
import { structureSchema } from './schema.js'
import { runSql, sql } from './sql.js'

/** The route pointing at a record (one per record), as (id, path), or null. */
export async function routeOfRecord(
  payload: Payload,
  req: PayloadRequest | undefined,
  record: RecordRef,
): Promise<{ id: string; path: string } | null> {
  const schema = structureSchema(payload)
  const rows = await runSql<{ id: string; path: string }>(
    payload,
    sql`SELECT rt.id, rt.path FROM ${schema.routeOfRefSql({ kind: sql`${record.kind}::text`, id: sql`${record.id}::uuid` })} rt`,
    req,
  )
  return rows[0] ?? null
}

/**
 * Clears a route's page / pageData in SQL, without hooks: the one
 * intermediate step of moving a record to a new route, where the old route
 * must let go of the record before the new one takes it and is given its
 * redirect right after (Local API, every hook), in the same transaction.
 */
export async function releaseRouteTarget(payload: Payload, req: PayloadRequest, routeId: string): Promise<void> {
  const schema = structureSchema(payload)
  await runSql(
    payload,
    sql`UPDATE ${schema.table('routes')} SET ${schema.column('routes', 'page')} = NULL WHERE id = ${routeId}::uuid`,
    req,
  )
  if (schema.relsName('routes')) {
    await runSql(
      payload,
      sql`DELETE FROM ${schema.rels('routes')} WHERE parent_id = ${routeId}::uuid AND path = 'pageData'`,
      req,
    )
  }
}

/**
 * Serialises the writes that give a record its route: a transaction-scoped
 * advisory lock on the record (held until the writing transaction ends, taken
 * again for free by the same transaction). Two concurrent creations of a
 * route for one record then run one after the other, so the second sees the
 * first's route and is refused with a violation (or, for generation, finds
 * the route already there). The unique indexes of the routes table
 * (migration 20261123_141000_integrity) hold the rule even for a write
 * outside any transaction.
 */
export async function lockRouteTarget(
  payload: Payload,
  req: PayloadRequest | undefined,
  record: RecordRef,
): Promise<void> {
  await runSql(
    payload,
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`cwa.route-target:${record.kind}:${record.id}`}, 0))`,
    req,
  )
}
