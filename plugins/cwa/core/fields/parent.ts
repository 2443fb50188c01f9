import { type CollectionSlug, type Field, type Payload, type PayloadRequest, ValidationError } from 'payload'
import type { CoreContext } from '../context.js'
import { getRegistry, isUuid } from '../registry.js'
import { relationCollection, relationId } from '../utils/relations.js'
import { runSql, type Sql, sql } from '../utils/sql.js'
import { columnNameOf, relsColumnOf, relsTableOf, requireTableName } from '../utils/schema.js'

/**
 * parentPage / parentPageData: a child names at most one parent, of either
 * type. Shared by Page and every page data type.
 */
export function parentFields(ctx: CoreContext): Field[] {
  const fields: Field[] = [
    {
      name: 'parentPage',
      type: 'relationship',
      relationTo: 'pages',
      label: 'Parent page',
      admin: { description: "Where this page sits in the site: its generated route starts with the parent's." },
    },
  ]
  if (ctx.pageDataSlugs.length > 0) {
    fields.push({
      name: 'parentPageData',
      type: 'relationship',
      relationTo: ctx.pageDataSlugs as CollectionSlug[],
      label: 'Parent record',
      admin: { description: 'Instead of a parent page: a page data record (one parent at most).' },
    })
  }
  return fields
}

/** beforeValidate check: never both parents at once. */
export function assertSingleParent(
  data: Record<string, unknown> | undefined,
  original?: Record<string, unknown>,
): void {
  const merged = { ...(original ?? {}), ...(data ?? {}) }
  if (merged.parentPage && merged.parentPageData) {
    throw new ValidationError({
      errors: [
        { path: 'parentPage', message: 'A child sets only one of parentPage and parentPageData.' },
        { path: 'parentPageData', message: 'A child sets only one of parentPage and parentPageData.' },
      ],
    })
  }
}

/**
 * Hook factory placing the parent rules before the user's own hooks: one
 * parent at most (assertSingleParent), and no cycle (assertNoParentCycle)
 * when the write sets a parent.
 */
export const singleParentHook =
  (): import('payload').CollectionBeforeValidateHook =>
  async ({ collection, data, originalDoc, req }) => {
    assertSingleParent(data as Record<string, unknown>, originalDoc as Record<string, unknown>)
    await assertNoParentCycle(
      req,
      collection.slug,
      data as Record<string, unknown> | undefined,
      originalDoc as Record<string, unknown> | undefined,
    )
    return data
  }

/**
 * A record is never its own ancestor: a write that sets `parentPage` or
 * `parentPageData` to the record itself, or to one of its descendants
 * (A's parent B while B's parent is A, at any depth), is a ValidationError on
 * that property (422 on the JSON-LD API, Payload's 400 on /api, the field's
 * error in the admin panel). One recursive query walks the parent chain up
 * from the new parent (stopping where an older cycle repeats), after a
 * transaction-scoped lock that serialises parent writes, so two concurrent
 * writes cannot close a cycle together. Writes that leave the parent alone
 * cost nothing.
 */
export async function assertNoParentCycle(
  req: PayloadRequest,
  slug: string,
  data: Record<string, unknown> | undefined,
  original: Record<string, unknown> | undefined,
): Promise<void> {
  const key =
    data?.parentPage != null && data.parentPage !== ''
      ? 'parentPage'
      : data?.parentPageData != null && data.parentPageData !== ''
        ? 'parentPageData'
        : null
  if (!key) return
  const self = relationId(original?.id ?? data?.id)
  const parentId = relationId(data![key])
  const parentKind = key === 'parentPage' ? 'pages' : relationCollection(data![key])
  // A new record is nobody's parent yet; a value that is no id is the relationship's own validation's.
  if (!self || !isUuid(self) || !isUuid(parentId) || !parentKind) return
  // The parent it already has (the admin panel sends every field on each save): nothing changes.
  const before = original?.[key]
  if (relationId(before) === parentId && (key === 'parentPage' || relationCollection(before) === parentKind)) return
  const payload = req.payload
  const message = 'This parent would make a cycle: the record would be its own ancestor.'
  if (parentKind === slug && parentId === self) throw new ValidationError({ errors: [{ path: key, message }] })
  await runSql(payload, sql`SELECT pg_advisory_xact_lock(hashtextextended('cwa.parent-graph', 0))`, req)
  const rows = await runSql<{ loops: boolean }>(
    payload,
    sql`WITH RECURSIVE chain(kind, id, trail) AS (
          SELECT ${parentKind}::text, ${parentId}::uuid, ARRAY[${parentId}::uuid]
          UNION ALL
          SELECT p.parent_kind, p.parent_id, c.trail || p.parent_id
          FROM chain c, ${parentOfSql(payload)} p
          WHERE p.parent_id IS NOT NULL AND NOT p.parent_id = ANY(c.trail)
        )
        SELECT EXISTS (SELECT 1 FROM chain WHERE kind = ${slug}::text AND id = ${self}::uuid) AS loops`,
    req,
  )
  if (rows[0]?.loops) throw new ValidationError({ errors: [{ path: key, message }] })
}

/**
 * The parent of the chain row `c` (columns kind, id) as a LATERAL subquery
 * (parent_kind, parent_id): one indexed branch per page and page data table,
 * each running only for rows of its kind.
 */
function parentOfSql(payload: Payload): Sql {
  const pageData = getRegistry(payload.config)
    .ofKind('pageData')
    .map((r) => r.slug)
  const branches = ['pages', ...pageData].map((slug) => {
    const table = requireTableName(payload, slug)
    const parentPage = columnNameOf(payload, slug, 'parentPage')
    const pp = parentPage ? sql`t.${sql.identifier(parentPage)}` : sql`NULL::uuid`
    const rels = relsTableOf(payload, slug)
    const relsColumns = pageData.flatMap((target) => {
      const name = relsColumnOf(payload, slug, target)?.column
      return name ? [[target, sql`pr.${sql.identifier(name)}`] as const] : []
    })
    const kind =
      relsColumns.length > 0
        ? sql`CASE WHEN ${pp} IS NOT NULL THEN 'pages'::text ${sql.join(
            relsColumns.map(([target, column]) => sql`WHEN ${column} IS NOT NULL THEN ${target}::text`),
            sql` `,
          )} END`
        : sql`CASE WHEN ${pp} IS NOT NULL THEN 'pages'::text END`
    const id =
      relsColumns.length > 0
        ? sql`COALESCE(${pp}, ${sql.join(
            relsColumns.map(([, column]) => column),
            sql`, `,
          )})`
        : pp
    const join =
      rels && relsColumns.length > 0
        ? sql` LEFT JOIN ${sql.identifier(rels)} pr ON pr.parent_id = t.id AND pr.path = 'parentPageData'`
        : sql``
    return sql`SELECT ${kind} AS parent_kind, ${id} AS parent_id FROM ${sql.identifier(table)} t${join} WHERE c.kind = ${slug}::text AND t.id = c.id`
  })
  return sql`LATERAL (${sql.join(branches, sql` UNION ALL `)})`
}
