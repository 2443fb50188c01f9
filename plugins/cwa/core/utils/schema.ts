import type { Payload } from 'payload'
import { toSnakeCase } from './naming.js'

/**
 * Table and column names as the database adapter made them (table prefix,
 * snake_case, `_rels` tables), for the raw SQL beside Payload's. The one
 * place that reads the adapter's naming: a slug with a hyphen or a capital
 * is found the same way everywhere.
 */

/** What the database adapter knows of its tables: names (prefix applied) and columns keyed by field. */
interface Adapter {
  tableNameMap: Map<string, string>
  tables: Record<string, Record<string, { name?: string } | undefined> | undefined>
}

const adapterOf = (payload: Payload): Adapter => payload.db

/** Table names by slug, per Payload instance: raw SQL asks for them while it is built. */
const known = new WeakMap<Payload, Map<string, string>>()

/** The table of a collection, or null (Payload keys its tables by the snake_cased slug: `payload-locked-documents` is `payload_locked_documents`). */
export function tableNameOf(payload: Payload, slug: string): string | null {
  let bySlug = known.get(payload)
  const hit = bySlug?.get(slug)
  if (hit) return hit
  const names = adapterOf(payload).tableNameMap
  const name = names.get(toSnakeCase(slug).replace(/-/g, '_')) ?? names.get(slug) ?? null
  // Only names found are kept: the adapter fills its map when it connects, after a plugin may first ask.
  if (name) {
    if (!bySlug) known.set(payload, (bySlug = new Map()))
    bySlug.set(slug, name)
  }
  return name
}

/** The table of a collection; throws when the adapter has none (a schema the SQL cannot run on). */
export function requireTableName(payload: Payload, slug: string): string {
  const name = tableNameOf(payload, slug)
  if (!name) throw new Error(`No table for collection "${slug}" in the database adapter`)
  return name
}

/** The column of a top-level field in the collection's own table, or null (a hasMany, polymorphic or localized field lives elsewhere). */
export function columnNameOf(payload: Payload, slug: string, field: string): string | null {
  const table = tableNameOf(payload, slug)
  return (table && adapterOf(payload).tables[table]?.[field]?.name) || null
}

/** The rels table of a collection (hasMany and polymorphic relationships), or null when it has none. */
export function relsTableOf(payload: Payload, slug: string): string | null {
  const table = tableNameOf(payload, slug)
  const rels = table ? `${table}_rels` : null
  return rels && adapterOf(payload).tables[rels] ? rels : null
}

/** The rels table of a collection and its column of one target collection, or null. */
export function relsColumnOf(payload: Payload, slug: string, target: string): { table: string; column: string } | null {
  const rels = relsTableOf(payload, slug)
  const columns = rels ? adapterOf(payload).tables[rels] : undefined
  const column = columns?.[`${target}ID`]?.name ?? columns?.[`${toSnakeCase(target)}ID`]?.name
  return rels && column ? { table: rels, column } : null
}
