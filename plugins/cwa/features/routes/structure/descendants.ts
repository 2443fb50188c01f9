import type { Payload, PayloadRequest } from 'payload'
import { refOf, structureSchema } from './schema.js'
import { runSql, sql } from './sql.js'

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
    sql`WITH RECURSIVE tree(kind, id, anchor, parent_route, route_id, path, depth, trail) AS (
        SELECT ${start.kind}::text, ${start.id}::uuid, ${startRouteId}::uuid, NULL::uuid, NULL::uuid, NULL::varchar, 0, ARRAY[${start.id}::uuid]
        UNION ALL
        SELECT c.kind, c.id, COALESCE(rt.id, tree.anchor), tree.anchor, rt.id, rt.path, tree.depth + 1, tree.trail || c.id
        FROM tree
        CROSS JOIN ${schema.childrenOfRefSql(refOf('tree'))} c
        LEFT JOIN ${schema.routeOfRefSql(refOf('c'))} rt ON true
        WHERE NOT c.twin_draft AND NOT c.id = ANY(tree.trail)
      )
      SELECT route_id, path, parent_route, depth FROM tree WHERE route_id IS NOT NULL ORDER BY depth, path`,
    req,
  )
  return rows.map((row) => ({
    routeId: row.route_id,
    path: row.path,
    parentRouteId: row.parent_route,
    depth: Number(row.depth),
  }))
}
