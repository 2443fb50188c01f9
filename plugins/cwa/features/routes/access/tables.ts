import { sql, type Sql, type SqlChunk } from '../../../core/utils/sql.js'
import type { Field, Payload } from 'payload'
import { getCwaMeta } from '../../../core/types.js'
import { structureSchema } from '../structure/schema.js'

export { runSql, type Sql } from '../../../core/utils/sql.js'

/** The table of a collection, as the database adapter named it (table prefix applied). */
export function tableOf(payload: Payload, slug: string): string {
  return structureSchema(payload).tableName(slug)
}

export const ident = (name: string): SqlChunk => sql.identifier(name)

/**
 * A field's column in the collection's own table, as the database adapter
 * named it (`heroCTABlock` is `hero_c_t_a_block_id`): never guessed.
 */
export function columnOf(payload: Payload, slug: string, field: string): Sql {
  return sql`${structureSchema(payload).column(slug, field)}`
}

/** The `_rels` table of a collection, as the adapter named it. */
export function relsOf(payload: Payload, slug: string): Sql {
  return sql`${structureSchema(payload).rels(slug)}`
}

/** The column of `slug`'s `_rels` table holding ids of `target`. */
export function relsColumnFor(payload: Payload, slug: string, target: string): Sql {
  return sql`${structureSchema(payload).relsColumn(slug, target)}`
}

/** Slugs of the collections of one CWA kind. */
export function slugsOfKind(payload: Payload, kind: 'component' | 'pageData'): string[] {
  return payload.config.collections.filter((c) => getCwaMeta(c)?.kind === kind).map((c) => c.slug)
}

/**
 * A polymorphic relationship stored in `owner`'s `_rels` table as one column
 * per target: the target's slug (CASE) and id (COALESCE) of the row aliased
 * `alias`. NULL for both when the table has no column for any target.
 */
export function polymorphicTarget(
  payload: Payload,
  owner: string,
  alias: string,
  targets: string[],
): { slug: Sql; id: Sql } {
  const found = structureSchema(payload).polymorphic(owner, targets, alias)
  return found ? { slug: sql`${found.kind}`, id: sql`${found.id}` } : { slug: sql`NULL::text`, id: sql`NULL::uuid` }
}

/** Top-level data fields of a collection (no layout-only wrappers). */
export function topFields(payload: Payload, slug: string): Field[] {
  return payload.collections[slug]?.config.fields ?? []
}

/**
 * `(SELECT unnest($1::uuid[]))` for `IN`: the ids travel as one array
 * parameter, so a list of any length stays under PostgreSQL's 65,535
 * parameters per statement. An empty list matches nothing.
 */
export function uuidList(ids: readonly string[]): Sql {
  return sql`(SELECT unnest(${`{${ids.join(',')}}`}::uuid[]))`
}
