import type { Payload } from 'payload'
import type { Resource } from '../../core/registry.js'
import { toSnakeCase } from '../../core/utils/naming.js'
import { columnNameOf, tableNameOf } from '../../core/utils/schema.js'
import type { ResolvedPublishable } from './options.js'

/** The table of a publishable type and its publishedAt and twin-link columns, from the adapter's schema. */
export function columnsOf(
  payload: Payload,
  resource: Resource,
  names: ResolvedPublishable,
): { table: string; publishedAt: string; publishedResource: string } | null {
  const table = tableNameOf(payload, resource.slug)
  if (!table) return null
  const column = (name: string, fallback: string) => columnNameOf(payload, resource.slug, name) ?? fallback
  return {
    table,
    publishedAt: column(names.publishedAt, toSnakeCase(names.publishedAt)),
    publishedResource: column(names.publishedResource, `${toSnakeCase(names.publishedResource)}_id`),
  }
}
