import type { Payload, PayloadRequest } from 'payload'
import type { RecordRef } from '../structure/descendants.js'
import { structureSchema } from '../structure/schema.js'
import { runBuiltSql, sql, type Sql, type SqlChunk } from '../structure/sql.js'
import { shownIdSql, type VersionMode } from './versions.js'

/**
 * One containment edge: page -> layout, page/layout/component -> group,
 * group -> position, position -> component. `kind` is a collection slug.
 * Seeds: parentKind `root` for the rendering pages, `seed` for a component
 * held by a page data property (parentId is the stored id, id the version
 * listed).
 */
export interface Edge {
  parentKind: string
  parentId: string | null
  kind: string
  id: string
  ord: number
  created: string | null
  pageDataClass: string | null
  pageDataProperty: string | null
}

/**
 * Everything the rendering pages contain, to any depth (layouts, groups,
 * positions, components and their own groups), in one recursive query over
 * the containment edges; publishable components resolved to the version the
 * caller is shown (a component with no such version is left out, with
 * everything below it).
 */
export async function loadEdges(
  payload: Payload,
  req: PayloadRequest | undefined,
  { pages, seeds, mode }: { pages: string[]; seeds: RecordRef[]; mode: VersionMode },
): Promise<Edge[]> {
  const components = structureSchema(payload).componentSlugs
  const bySlug = new Map<string, string[]>()
  for (const seed of seeds)
    if (components.includes(seed.kind)) bySlug.set(seed.kind, [...(bySlug.get(seed.kind) ?? []), seed.id])
  if (pages.length === 0 && bySlug.size === 0) return []
  const seedSlugs = [...bySlug.keys()].sort()
  // The text depends on the version mode and on how many starts of each kind there are, never on the ids or
  // the moment (placeholders): built once per shape, and one prepared statement on each connection. The ids go
  // in one placeholder each, not as an array: with an array the planner's generic estimate (10 elements) makes
  // PostgreSQL plan this statement afresh on every run (about 0.6 ms), with a list it reuses one plan.
  const values: Record<string, unknown> = { at: 'at' in mode ? mode.at.toISOString() : null }
  pages.forEach((id, j) => (values[`page${j}`] = id))
  const seedCounts = seedSlugs.map((slug, i) => {
    const ids = bySlug.get(slug)!
    ids.forEach((id, j) => (values[`seed${i}_${j}`] = id))
    return ids.length
  })
  const rows = await runBuiltSql<{
    parent_kind: string
    parent_id: string | null
    kind: string
    id: string
    ord: number
    created: string | null
    pdc: string | null
    pdp: string | null
  }>(
    payload,
    `manifest-walk:${mode.kind}:${pages.length}:${seedSlugs.map((slug, i) => `${slug}=${seedCounts[i]}`).join(',')}`,
    () => walkSql(payload, mode.kind, pages.length, seedSlugs, seedCounts),
    values,
    req,
  )
  return rows.map((r) => ({
    parentKind: r.parent_kind,
    parentId: r.parent_id,
    kind: r.kind,
    id: String(r.id),
    ord: Number(r.ord),
    created: r.created,
    pageDataClass: r.pdc,
    pageDataProperty: r.pdp,
  }))
}

/** Placeholders `<prefix>0` ... as a list of uuids. */
const idList = (prefix: string, count: number) =>
  sql.join(
    Array.from({ length: count }, (_, j) => sql`${sql.placeholder(`${prefix}${j}`)}::uuid`),
    sql`, `,
  )

/** The walk's statement for one shape; placeholders `page<j>`, `seed<i>_<j>` (ids of seedSlugs[i]) and `at`. */
function walkSql(
  payload: Payload,
  mode: VersionMode['kind'],
  pageCount: number,
  seedSlugs: string[],
  seedCounts: number[],
): Sql {
  const schema = structureSchema(payload)
  const components = schema.componentSlugs
  const group = 'component_groups'
  const position = 'component_positions'
  const at = sql`${sql.placeholder('at')}::timestamptz`
  // The edges out of the walk row w: one branch per kind of parent, each an index lookup that only
  // runs for rows of its kind (so each step costs lookups, never a scan of every position or page).
  const edges: SqlChunk[] = [
    sql`SELECT w.kind AS parent_kind, w.id AS parent_id, 'layouts'::text AS kind, p.${schema.column('pages', 'layout')} AS id,
        0::float8 AS ord, NULL::timestamptz AS created, NULL::varchar AS pdc, NULL::varchar AS pdp
        FROM ${schema.table('pages')} p WHERE w.kind = 'pages' AND p.id = w.id`,
    sql`SELECT w.kind, w.id, ${position}::text, p.id,
        p.${schema.column(position, 'sortValue')}::float8, p.created_at, p.${schema.column(position, 'pageDataClass')}, p.${schema.column(position, 'pageDataProperty')}
        FROM ${schema.table(position)} p WHERE w.kind = ${group}::text AND p.${schema.column(position, 'componentGroup')} = w.id`,
  ]
  for (const owner of ['pages', 'layouts', ...components]) {
    const column = schema.relsColumnName(owner, group)
    if (!column) continue
    edges.push(sql`SELECT w.kind, w.id, ${group}::text, g.${sql.identifier(column)}, g."order"::float8, NULL, NULL, NULL
      FROM ${schema.rels(owner)} g WHERE w.kind = ${owner}::text AND g.parent_id = w.id AND g.path = 'componentGroups'`)
  }
  // A position holds one component, in the column of its collection: one branch reads the position's
  // relation row once and picks the column that is set (a branch per collection probed the same row
  // once per component collection, 7 lookups per position on the demo site).
  const held = components.flatMap((slug) => {
    const column = schema.relsColumnName(position, slug)
    return column ? [{ slug, column: sql.identifier(column) }] : []
  })
  if (held.length > 0) {
    const kindOf = sql.join(
      held.map(({ slug, column }) => sql` WHEN r.${column} IS NOT NULL THEN ${slug}::text`),
      sql``,
    )
    const shownOf = sql.join(
      held.map(
        ({ slug, column }) =>
          sql` WHEN r.${column} IS NOT NULL THEN (SELECT ${shownIdSql(schema, slug, 'c', mode, at)} FROM ${schema.table(slug)} c WHERE c.id = r.${column})`,
      ),
      sql``,
    )
    edges.push(sql`SELECT w.kind, w.id, CASE${kindOf} END, CASE${shownOf} END, 0::float8, NULL, NULL, NULL
      FROM ${schema.rels(position)} r WHERE w.kind = ${position}::text AND r.parent_id = w.id AND r.path = 'component'`)
  }
  // The starts are edges of one synthetic `start` row: the walk then begins from a single row, which
  // keeps the planner's estimate of the recursion small (a large one would switch on PostgreSQL's
  // JIT compilation, ~100 ms, for a query that runs in a few).
  if (pageCount > 0) {
    edges.push(sql`SELECT 'root'::text, NULL::uuid, 'pages'::text, x.id, 0::float8, NULL, NULL, NULL
      FROM ${schema.table('pages')} x WHERE w.kind = 'start' AND x.id IN (${idList('page', pageCount)})`)
  }
  seedSlugs.forEach((slug, i) => {
    edges.push(sql`SELECT 'seed'::text, c.id, ${slug}::text, ${shownIdSql(schema, slug, 'c', mode, at)}, 0::float8, NULL, NULL, NULL
      FROM ${schema.table(slug)} c WHERE w.kind = 'start' AND c.id IN (${idList(`seed${i}_`, seedCounts[i]!)})`)
  })
  return sql`WITH RECURSIVE
      walk(parent_kind, parent_id, kind, id, ord, created, pdc, pdp) AS (
        SELECT NULL::text, NULL::uuid, 'start'::text, NULL::uuid, 0::float8, NULL::timestamptz, NULL::varchar, NULL::varchar
        UNION
        SELECT e.parent_kind, e.parent_id, e.kind, e.id, e.ord, e.created, e.pdc, e.pdp
        FROM walk w CROSS JOIN LATERAL (${sql.join(edges, sql` UNION ALL `)}) e
        WHERE e.id IS NOT NULL
      )
      SELECT parent_kind, parent_id, kind, id, ord, created, pdc, pdp FROM walk WHERE kind <> 'start'`
}
