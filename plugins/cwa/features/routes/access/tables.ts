import { sql, type Sql } from '../../../core/utils/sql'
import type { Field, Payload } from 'payload'
import { getCwaMeta } from '../../../core/types'
import { polymorphicSql, structureSchema } from '../structure/schema'

export { runSql, type Sql } from '../../../core/utils/sql'

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

/**
 * `(SELECT unnest($1::uuid[]))` for `IN`: the ids travel as one array
 * parameter, so a list of any length stays under PostgreSQL's 65,535
 * parameters per statement. An empty list matches nothing.
 */
export function uuidList(ids: readonly string[]): Sql {
  return sql`(SELECT unnest(${`{${ids.join(',')}}`}::uuid[]))`
}
