import type { Payload } from 'payload'
import type { Resource } from '../../core/registry'
import { toSnakeCase } from '../../core/utils/naming'
import type { ResolvedPublishable } from './options'

/** What the database adapter knows of its tables: their names (prefix applied) and their columns. */
interface Adapter {
  tableNameMap: Map<string, string>
  tables: Record<string, Record<string, { name?: string } | undefined>>
}

/** The table of a publishable type and its publishedAt and twin-link columns, from the adapter's schema. */
export function columnsOf(payload: Payload, resource: Resource, names: ResolvedPublishable): { table: string; publishedAt: string; publishedResource: string } | null {
  const adapter = payload.db as unknown as Adapter
  const table = adapter.tableNameMap.get(toSnakeCase(resource.slug)) ?? adapter.tableNameMap.get(resource.slug)
  if (!table) return null
  const column = (name: string, fallback: string) => adapter.tables[table]?.[name]?.name ?? fallback
  return {
    table,
    publishedAt: column(names.publishedAt, toSnakeCase(names.publishedAt)),
    publishedResource: column(names.publishedResource, `${toSnakeCase(names.publishedResource)}_id`),
  }
}

