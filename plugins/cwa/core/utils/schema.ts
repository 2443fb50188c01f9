import type { Payload } from 'payload'
import { toSnakeCase } from './naming'

/** What the database adapter knows of its tables: names (prefix applied) and columns keyed by field. */
interface Adapter {
  tableNameMap: Map<string, string>
  tables: Record<string, Record<string, { name?: string } | undefined> | undefined>
}

const adapterOf = (payload: Payload) => payload.db as unknown as Adapter

/** The table of a collection, or null (Payload keys its tables by the snake_cased slug: `payload-locked-documents` is `payload_locked_documents`). */
export function tableNameOf(payload: Payload, slug: string): string | null {
  const names = adapterOf(payload).tableNameMap
  return names.get(toSnakeCase(slug).replace(/-/g, '_')) ?? names.get(slug) ?? null
}

/** The column of a top-level field in the collection's own table, or null (a hasMany, polymorphic or localized field lives elsewhere). */
export function columnNameOf(payload: Payload, slug: string, field: string): string | null {
  const table = tableNameOf(payload, slug)
  return (table && adapterOf(payload).tables[table]?.[field]?.name) || null
}

/** The rels table of a collection (hasMany and polymorphic relationships) and its column of one target collection, or null. */
export function relsColumnOf(payload: Payload, slug: string, target: string): { table: string; column: string } | null {
  const table = tableNameOf(payload, slug)
  const rels = table ? `${table}_rels` : null
  const columns = rels ? adapterOf(payload).tables[rels] : undefined
  const column = columns?.[`${target}ID`]?.name ?? columns?.[`${toSnakeCase(target)}ID`]?.name
  return rels && column ? { table: rels, column } : null
}
