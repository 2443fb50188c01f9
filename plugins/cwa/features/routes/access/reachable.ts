import { sql } from '@payloadcms/db-postgres'
import type { Field, Payload, PayloadRequest } from 'payload'
import { chainCtes, effectiveCte } from './graph.js'
import {
  columnOf,
  ident,
  polymorphicTarget,
  relsColumnFor,
  relsOf,
  runSql,
  slugsOfKind,
  type Sql,
  tableOf,
  topFields,
  uuidList,
} from './tables.js'

/** `slug:id` of a record: one key space for pages, page data and components. */
export const key = (slug: string, id: string) => `${slug}:${id}`

export interface ReachRow {
  route_id: string
  path: string
  slug: string
  id: string
  depth: number
  template_id: string | null
}

/**
 * Every live route (as of `at`) with the records it makes public: its page
 * or page data (depth 0), every ancestor (depth > 0), and the template page
 * of each page data among them. One query.
 */
export async function reachRows(payload: Payload, at: Date, req?: PayloadRequest): Promise<ReachRow[]> {
  return runSql<ReachRow>(
    payload,
    sql`WITH RECURSIVE ${chainCtes(payload)}, ${effectiveCte()},
      live AS (SELECT route_id, path FROM effective WHERE effective_live_at <= ${at.toISOString()}::timestamptz)
      SELECT c.route_id, l.path, c.slug, c.id, c.depth, n.template_id
      FROM chain c JOIN live l ON l.route_id = c.route_id
      LEFT JOIN nodes n ON n.slug = c.slug AND n.id = c.id`,
    req,
  )
}

/**
 * Ids of the routes no failing route_security rule (a LIKE over the whole
 * path, `*` a wildcard) matches. One query.
 */
export async function routeIdsOutsideRules(
  payload: Payload,
  failedLikes: string[],
  req?: PayloadRequest,
): Promise<string[]> {
  const rules = failedLikes.map((pattern) => sql`NOT (path LIKE ${pattern} ESCAPE '\\')`)
  const rows = await runSql<{ id: string }>(
    payload,
    sql`SELECT id FROM ${ident(tableOf(payload, 'routes'))} WHERE ${sql.join(rules, sql` AND `)}`,
    req,
  )
  return rows.map((row) => String(row.id))
}

/** `placements(group_id, slug, id)`: the component in each position (polymorphic, in the positions' `_rels`). */
function placementsSql(payload: Payload): Sql {
  const target = polymorphicTarget(payload, 'component_positions', 'pr', slugsOfKind(payload, 'component'))
  return sql`SELECT p.${columnOf(payload, 'component_positions', 'componentGroup')} AS group_id, ${target.slug} AS slug, ${target.id} AS id
    FROM ${ident(tableOf(payload, 'component_positions'))} p JOIN ${relsOf(payload, 'component_positions')} pr ON pr.parent_id = p.id AND pr.path = 'component'`
}

/** `owned(slug, parent_id, group_id)`: the groups each component owns (nested regions). */
function ownedGroupsSql(payload: Payload): Sql {
  const parts = slugsOfKind(payload, 'component').map(
    (
      slug,
    ) => sql`SELECT ${slug}::text AS slug, parent_id, ${relsColumnFor(payload, slug, 'component_groups')} AS group_id
      FROM ${relsOf(payload, slug)} WHERE path = 'componentGroups'`,
  )
  return parts.length > 0
    ? sql.join(parts, sql` UNION ALL `)
    : sql`SELECT NULL::text AS slug, NULL::uuid AS parent_id, NULL::uuid AS group_id WHERE false`
}

/**
 * `(page_data_slug, page_data_id, slug, id)` of every component held as a
 * property of a page data record: single relationship columns, or rows of
 * the `_rels` table for polymorphic or hasMany properties.
 */
function heldSql(payload: Payload): Sql {
  const components = new Set(slugsOfKind(payload, 'component'))
  const parts: Sql[] = []
  for (const pageData of slugsOfKind(payload, 'pageData')) {
    for (const field of topFields(payload, pageData) as Array<
      Field & { name?: string; relationTo?: unknown; hasMany?: boolean }
    >) {
      if (field.type !== 'relationship' || !field.name) continue
      const targets = (Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]).filter(
        (t): t is string => typeof t === 'string' && components.has(t),
      )
      if (targets.length === 0) continue
      if (!Array.isArray(field.relationTo) && !field.hasMany) {
        parts.push(sql`SELECT ${pageData}::text AS pd_slug, d.id AS pd_id, ${targets[0]}::text AS slug, d.${columnOf(payload, pageData, field.name)} AS id
          FROM ${ident(tableOf(payload, pageData))} d`)
      } else {
        const target = polymorphicTarget(payload, pageData, 'r', targets)
        parts.push(sql`SELECT ${pageData}::text AS pd_slug, r.parent_id AS pd_id, ${target.slug} AS slug, ${target.id} AS id
          FROM ${relsOf(payload, pageData)} r WHERE r.path = ${field.name}`)
      }
    }
  }
  return parts.length > 0
    ? sql.join(parts, sql` UNION ALL `)
    : sql`SELECT NULL::text AS pd_slug, NULL::uuid AS pd_id, NULL::text AS slug, NULL::uuid AS id WHERE false`
}

/**
 * Components reachable from the given pages and page data records: placed
 * in a group of one of the pages or of its layout, held as a property of
 * one of the page data records, or nested (to any depth) in a group of a
 * reachable component. One recursive query.
 */
export async function reachableComponents(
  payload: Payload,
  pages: string[],
  pageData: Array<{ slug: string; id: string }>,
  req?: PayloadRequest,
): Promise<Set<string>> {
  const pagesTable = tableOf(payload, 'pages')
  const pageGroups = relsColumnFor(payload, 'pages', 'component_groups')
  const layoutGroups = relsColumnFor(payload, 'layouts', 'component_groups')
  const pageLayout = columnOf(payload, 'pages', 'layout')
  const pageList = uuidList(pages)
  const heldBy =
    pageData.length > 0
      ? sql`(h.pd_slug, h.pd_id) IN (SELECT * FROM unnest(${`{${pageData.map((d) => d.slug).join(',')}}`}::text[], ${`{${pageData.map((d) => d.id).join(',')}}`}::uuid[]))`
      : sql`false`
  const rows = await runSql<{ slug: string; id: string }>(
    payload,
    sql`WITH RECURSIVE placements AS (${placementsSql(payload)}),
      owned AS (${ownedGroupsSql(payload)}),
      held AS (${heldSql(payload)}),
      seed_groups AS (
        SELECT r.${pageGroups} AS group_id FROM ${relsOf(payload, 'pages')} r WHERE r.path = 'componentGroups' AND r.parent_id IN ${pageList}
        UNION
        SELECT lr.${layoutGroups} FROM ${ident(pagesTable)} p JOIN ${relsOf(payload, 'layouts')} lr ON lr.parent_id = p.${pageLayout} AND lr.path = 'componentGroups'
        WHERE p.id IN ${pageList}
      ),
      seeds AS (
        SELECT pl.slug, pl.id FROM placements pl WHERE pl.group_id IN (SELECT group_id FROM seed_groups)
        UNION
        SELECT h.slug, h.id FROM held h WHERE h.id IS NOT NULL AND ${heldBy}
      ),
      comps(slug, id) AS (
        SELECT slug, id FROM seeds
        UNION
        SELECT pl.slug, pl.id FROM comps c JOIN owned o ON o.slug = c.slug AND o.parent_id = c.id JOIN placements pl ON pl.group_id = o.group_id
      )
      SELECT slug, id FROM comps WHERE id IS NOT NULL`,
    req,
  )
  return new Set(
    rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => key(row.slug, String(row.id))),
  )
}

/** Components of one type (all, or the given ids) that have at least one location: a position or a page data property. */
export async function locatedComponents(
  payload: Payload,
  slug: string,
  ids?: string[],
  req?: PayloadRequest,
): Promise<Set<string>> {
  const only = ids ? sql` AND id IN ${uuidList(ids)}` : sql``
  const rows = await runSql<{ id: string }>(
    payload,
    sql`WITH placements AS (${placementsSql(payload)}), held AS (${heldSql(payload)})
      SELECT id FROM placements WHERE slug = ${slug} AND id IS NOT NULL${only}
      UNION
      SELECT id FROM held WHERE slug = ${slug} AND id IS NOT NULL${only}`,
    req,
  )
  // An empty component property is a NULL id: never a location (String(null) would reach a UUID parameter as "null").
  return new Set(rows.filter((row) => row.id !== null && row.id !== undefined).map((row) => String(row.id)))
}
