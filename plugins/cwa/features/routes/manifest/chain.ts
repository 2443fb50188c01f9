import type { Payload, PayloadRequest } from 'payload'
import type { RecordRef } from '../structure/descendants.js'
import { refOf, structureSchema } from '../structure/schema.js'
import { runBuiltSql, sql, type Sql } from '../structure/sql.js'
import { publishableColumns } from './versions.js'

/** One record of the rendering chain: the requested record or one of its ancestors. */
export interface ChainLink extends RecordRef {
  /** The stored row (column names), for page data properties and publication dates. */
  row: Record<string, unknown>
  /** The draft twin's row of a publishable page data record, if any. */
  draft: Record<string, unknown> | null
}

/** A route with its target (page or page data record) and its stored effective go-live date. */
export interface RouteRow {
  id: string
  path: string
  target_kind: string | null
  target_id: string | null
  effective_live_at: Date | string | null
}

interface Row extends RouteRow {
  link_kind: string | null
  link_id: string | null
  row: Record<string, unknown> | null
  draft: Record<string, unknown> | null
}

/**
 * The route with this id or path and the chain of the record it
 * targets: that record and its ancestors (parentPage / parentPageData), root
 * first. One statement: the route's row repeats on each link (a route with
 * no target, or a target that is gone, comes back as one row without a
 * link). A parent cycle stops where it repeats. The chain is read before the
 * caller's access to the route is decided; the caller decides, and drops it
 * unseen when the route is not for them.
 */
export async function loadRouteChain(
  payload: Payload,
  req: PayloadRequest | undefined,
  by: 'id' | 'path',
  value: string,
): Promise<{ route: RouteRow; chain: ChainLink[] } | null> {
  const rows = await runBuiltSql<Row>(payload, `manifest-chain:${by}`, () => routeChainSql(payload, by), { value }, req)
  const first = rows[0]
  if (!first) return null
  const route: RouteRow = {
    id: String(first.id),
    path: first.path,
    target_kind: first.target_kind,
    target_id: first.target_id === null ? null : String(first.target_id),
    effective_live_at: first.effective_live_at,
  }
  const chain = rows
    .filter((r) => r.link_kind !== null && r.link_id !== null && r.row !== null)
    .map((r) => ({ kind: r.link_kind!, id: String(r.link_id), row: r.row!, draft: r.draft }))
  return { route, chain }
}

/** The statement of loadRouteChain, built once per kind of lookup (placeholder `value`). */
function routeChainSql(payload: Payload, by: 'id' | 'path'): Sql {
  const schema = structureSchema(payload)
  const where = by === 'id' ? sql`r.id = ${sql.placeholder('value')}::uuid` : sql`r.path = ${sql.placeholder('value')}`
  const extra = (slug: string) => {
    const columns = slug === 'pages' ? null : publishableColumns(schema, slug)
    const draft = columns
      ? sql`(SELECT to_jsonb(d) FROM ${schema.table(slug)} d WHERE d.${sql.identifier(columns.publishedResource)} = t.id LIMIT 1)`
      : sql`NULL::jsonb`
    return sql`to_jsonb(t) AS row, ${draft} AS draft`
  }
  return sql`WITH RECURSIVE route AS (${schema.routeTargetsSql(where)} LIMIT 1),
      chain(kind, id, parent_kind, parent_id, row, draft, up, trail) AS (
        SELECT r.kind, r.id, r.parent_kind, r.parent_id, r.row, r.draft, 0, ARRAY[r.id]
        FROM route rt CROSS JOIN ${schema.recordByRefSql(refOf('rt', 'target_kind', 'target_id'), extra)} r
        UNION ALL
        SELECT r.kind, r.id, r.parent_kind, r.parent_id, r.row, r.draft, c.up + 1, c.trail || r.id
        FROM chain c CROSS JOIN ${schema.recordByRefSql(refOf('c', 'parent_kind', 'parent_id'), extra)} r
        WHERE NOT r.id = ANY(c.trail)
      )
      SELECT route.*, chain.kind AS link_kind, chain.id AS link_id, chain.row, chain.draft
      FROM route LEFT JOIN chain ON true ORDER BY chain.up DESC`
}
