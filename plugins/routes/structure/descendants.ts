import type { Payload, PayloadRequest } from 'payload'
import { structureSchema } from './schema'
import { runSql, sql } from './sql'

/** A page or page data record: its collection slug and id. */
export interface RecordRef {
  kind: string
  id: string
}

/** A routed descendant of a record, with the route of its nearest routed ancestor. */
export interface RoutedDescendant {
  routeId: string
  path: string
  /** Route of the nearest routed ancestor (the start's route when none between). */
  parentRouteId: string
  /** Generations below the start record. */
  depth: number
}

/**
 * Every routed record below `start` in the parent graph (parentPage /
 * parentPageData, any depth), in one recursive query. Records without a
 * route are walked through: their routed descendants hang under the nearest
 * routed ancestor. Draft twins of page data are the same node as their
 * published record and are skipped; a parent cycle stops where it repeats.
 */
export async function routedDescendants(
  payload: Payload,
  req: PayloadRequest | undefined,
  start: RecordRef,
  startRouteId: string,
): Promise<RoutedDescendant[]> {
  const schema = structureSchema(payload)
  const rows = await runSql<{ route_id: string; path: string; parent_route: string; depth: number }>(
    payload,
    req,
    sql`WITH RECURSIVE
      records AS NOT MATERIALIZED (${schema.recordsSql()}),
      targets AS NOT MATERIALIZED (${schema.routeTargetsSql()}),
      tree(kind, id, anchor, parent_route, route_id, path, depth, trail) AS (
        SELECT ${start.kind}::text, ${start.id}::uuid, ${startRouteId}::uuid, NULL::uuid, NULL::uuid, NULL::varchar, 0, ARRAY[${start.id}::uuid]
        UNION ALL
        SELECT r.kind, r.id, COALESCE(t.id, tree.anchor), tree.anchor, t.id, t.path, tree.depth + 1, tree.trail || r.id
        FROM tree
        JOIN records r ON r.parent_kind = tree.kind AND r.parent_id = tree.id AND NOT r.twin_draft
        LEFT JOIN targets t ON t.target_kind = r.kind AND t.target_id = r.id
        WHERE NOT r.id = ANY(tree.trail)
      )
      SELECT route_id, path, parent_route, depth FROM tree WHERE route_id IS NOT NULL ORDER BY depth, path`,
  )
  return rows.map((row) => ({ routeId: row.route_id, path: row.path, parentRouteId: row.parent_route, depth: Number(row.depth) }))
}

/** The route pointing at a record (one per record), as (id, path), or null. */
export async function routeOfRecord(payload: Payload, req: PayloadRequest | undefined, record: RecordRef): Promise<{ id: string; path: string } | null> {
  const schema = structureSchema(payload)
  const rows = await runSql<{ id: string; path: string }>(
    payload,
    req,
    sql`SELECT id, path FROM (${schema.routeTargetsSql()}) t WHERE t.target_kind = ${record.kind} AND t.target_id = ${record.id}::uuid LIMIT 1`,
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
  await runSql(payload, req, sql`UPDATE ${schema.table('routes')} SET ${schema.column('routes', 'page')} = NULL WHERE id = ${routeId}::uuid`)
  if (schema.relsName('routes')) {
    await runSql(payload, req, sql`DELETE FROM ${schema.rels('routes')} WHERE parent_id = ${routeId}::uuid AND path = 'pageData'`)
  }
}
