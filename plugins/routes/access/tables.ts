import { sql, type Sql } from '../../../src/utils/sql'
import type { Field, Payload } from 'payload'
import { getCwaMeta } from '../../cwa/types'
import { polymorphicSql, structureSchema } from '../structure/schema'

export { runSql, type Sql } from '../../../src/utils/sql'

/** The table of a collection, as the database adapter named it (table prefix applied). */
export function tableOf(payload: Payload, slug: string): string {
  return structureSchema(payload).tableName(slug)
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
 * target: the target's slug (CASE) and id (COALESCE) of the row aliased `alias`.
 */
export function polymorphicTarget(payload: Payload, alias: string, targets: string[]): { slug: Sql; id: Sql } {
  const { kind, id } = polymorphicSql(targets.map((t) => [t, sql`${ident(alias)}.${ident(`${tableOf(payload, t)}_id`)}`]))
  return { slug: kind, id }
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
