import { sql, type Sql } from '../../../src/utils/sql'
import type { Field, Payload } from 'payload'
import { getCwaMeta } from '../../cwa/types'

export { runSql, type Sql } from '../../../src/utils/sql'

interface Adapter {
  tableNameMap: Map<string, string>
}

/** The table of a collection, as the database adapter named it (table prefix applied). */
export function tableOf(payload: Payload, slug: string): string {
  const dbName = payload.collections[slug as never]?.config.dbName
  if (typeof dbName === 'string') return dbName
  const adapter = payload.db as unknown as Adapter
  return adapter.tableNameMap.get(slug.replace(/-/g, '_')) ?? slug.replace(/-/g, '_')
}

export const ident = (name: string) => sql.identifier(name)

/** snake_case column of a field name (Payload's naming: parentPage -> parent_page). */
export const column = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()

/** Slugs of the collections of one CWA kind. */
export function slugsOfKind(payload: Payload, kind: 'component' | 'pageData'): string[] {
  return payload.config.collections.filter((c) => getCwaMeta(c)?.kind === kind).map((c) => c.slug)
}

/**
 * A polymorphic relationship stored in the `_rels` table as one column per
 * target: the target's slug (CASE) and id (COALESCE) of the row aliased `r`.
 */
export function polymorphicTarget(payload: Payload, alias: string, targets: string[]): { slug: Sql; id: Sql } {
  if (targets.length === 0) return { slug: sql`NULL::text`, id: sql`NULL::uuid` }
  const col = (target: string) => sql`${ident(alias)}.${ident(`${tableOf(payload, target)}_id`)}`
  return {
    slug: sql`CASE ${sql.join(targets.map((t) => sql`WHEN ${col(t)} IS NOT NULL THEN ${t}::text`), sql` `)} END`,
    id: targets.length === 1 ? col(targets[0]!) : sql`COALESCE(${sql.join(targets.map(col), sql`, `)})`,
  }
}

/** Top-level data fields of a collection (no layout-only wrappers). */
export function topFields(payload: Payload, slug: string): Field[] {
  return payload.collections[slug as never]?.config.fields ?? []
}

/** `(a, b, c)` of uuids for `IN`, or a list that matches nothing. */
export function uuidList(ids: readonly string[]): Sql {
  if (ids.length === 0) return sql`(NULL::uuid)`
  return sql`(${sql.join(ids.map((id) => sql`${id}::uuid`), sql`, `)})`
}
