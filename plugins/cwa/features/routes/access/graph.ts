import { sql } from '@payloadcms/db-postgres'
import type { Payload } from 'payload'
import { columnOf, ident, polymorphicTarget, relsOf, slugsOfKind, type Sql, tableOf } from './tables.js'

/** Deepest page hierarchy followed (a guard against a parent cycle written around validation). */
export const MAX_DEPTH = 64

/**
 * `nodes(slug, id, parent_slug, parent_id, template_id, updated_at)`: every
 * page and page data record with its single parent (parentPage, or
 * parentPageData stored in the `_rels` table) and, for page data, the
 * template Page it renders through.
 */
export function nodesSql(payload: Payload): Sql {
  const pageData = slugsOfKind(payload, 'pageData')
  const parts = ['pages', ...pageData].map((slug) => {
    const parent = polymorphicTarget(payload, slug, 'r', pageData)
    const parentPage = sql`t.${columnOf(payload, slug, 'parentPage')}`
    const template = slug === 'pages' ? sql`NULL::uuid` : sql`t.${columnOf(payload, slug, 'page')}`
    const rels =
      pageData.length > 0
        ? sql`LEFT JOIN ${relsOf(payload, slug)} r ON r.parent_id = t.id AND r.path = 'parentPageData'`
        : sql`LEFT JOIN (SELECT NULL::uuid AS parent_id) r ON false`
    return sql`SELECT ${slug}::text AS slug, t.id,
      CASE WHEN ${parentPage} IS NOT NULL THEN 'pages'::text ELSE ${parent.slug} END AS parent_slug,
      COALESCE(${parentPage}, ${parent.id}) AS parent_id,
      ${template} AS template_id, t.updated_at
      FROM ${ident(tableOf(payload, slug))} t ${rels}`
  })
  return sql.join(parts, sql` UNION ALL `)
}

/**
 * `targets(route_id, path, live_at, redirect_id, updated_at, slug, node_id)`:
 * every route with the page or page data record it points at (none for a
 * redirect).
 */
export function targetsSql(payload: Payload): Sql {
  const pageData = slugsOfKind(payload, 'pageData')
  const target = polymorphicTarget(payload, 'routes', 'rr', pageData)
  const column = (field: string) => sql`rt.${columnOf(payload, 'routes', field)}`
  const rels =
    pageData.length > 0
      ? sql`LEFT JOIN ${relsOf(payload, 'routes')} rr ON rr.parent_id = rt.id AND rr.path = 'pageData'`
      : sql`LEFT JOIN (SELECT NULL::uuid AS parent_id) rr ON false`
  return sql`SELECT rt.id AS route_id, ${column('path')} AS path, ${column('liveAt')} AS live_at, ${column('redirect')} AS redirect_id, rt.updated_at,
    CASE WHEN ${column('page')} IS NOT NULL THEN 'pages'::text ELSE ${target.slug} END AS slug,
    COALESCE(${column('page')}, ${target.id}) AS node_id
    FROM ${ident(tableOf(payload, 'routes'))} rt ${rels}`
}

/**
 * The common table expressions every liveness question starts from:
 * `targets`, `nodes`, and `chain(route_id, slug, id, depth)`: each route's
 * page or page data (depth 0) and every ancestor above it.
 * `seed` narrows the routes the chain starts from (a WHERE on `targets`).
 */
export function chainCtes(payload: Payload, seed: Sql = sql`true`): Sql {
  return sql`targets AS (${targetsSql(payload)}),
    nodes AS (${nodesSql(payload)}),
    chain(route_id, slug, id, depth) AS (
      SELECT route_id, slug, node_id, 0 FROM targets WHERE node_id IS NOT NULL AND (${seed})
      UNION ALL
      SELECT c.route_id, n.parent_slug, n.parent_id, c.depth + 1
      FROM chain c JOIN nodes n ON n.slug = c.slug AND n.id = c.id
      WHERE n.parent_id IS NOT NULL AND c.depth < ${MAX_DEPTH}
    )`
}

/**
 * `effective(route_id, path, live_at, effective_live_at, redirect_id, ...)`:
 * a route's go-live date is the latest of its own liveAt and the liveAt of
 * every routed ancestor; null (never live) when any of them is null. An
 * ancestor without a route is skipped.
 */
export function effectiveCte(): Sql {
  return sql`inherited AS (
      SELECT c.route_id, bool_or(a.live_at IS NULL) AS gated, max(a.live_at) AS latest
      FROM chain c JOIN targets a ON a.slug = c.slug AND a.node_id = c.id
      WHERE c.depth > 0
      GROUP BY c.route_id
    ),
    effective AS (
      SELECT t.route_id, t.path, t.live_at, t.redirect_id, t.updated_at, t.slug, t.node_id,
        CASE WHEN t.live_at IS NULL OR COALESCE(i.gated, false) THEN NULL ELSE GREATEST(t.live_at, i.latest) END AS effective_live_at
      FROM targets t LEFT JOIN inherited i ON i.route_id = t.route_id
    )`
}
