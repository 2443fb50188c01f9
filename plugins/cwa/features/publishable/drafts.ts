import type { Payload, PayloadRequest } from 'payload'
import { getRegistry, isUuid } from '../../core/registry.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { columnsOf } from './columns.js'
import { publishableOf } from './config.js'

/** A record by its collection and id. */
export interface RecordRef {
  slug: string
  id: string
}

/** The key of a record in pendingDrafts' answer. */
export const draftKey = (slug: string, id: string) => `${slug}:${id}`

/**
 * The pending drafts of a batch of records, keyed `slug:id` of the record
 * they would replace: one query for any number of records and types (a page
 * of positions never costs a query per position). Records of types without
 * drafts, and records with no draft, are absent. A draft whose date has come
 * is left out: the next read of its twin publishes it (store.ts), so the
 * twin is the record to name. Ignores access: for callers who may see drafts.
 */
export async function pendingDrafts(
  payload: Payload,
  refs: RecordRef[],
  req: PayloadRequest | undefined,
  now = new Date(),
): Promise<Map<string, string>> {
  const bySlug = new Map<string, Set<string>>()
  for (const ref of refs) {
    if (isUuid(ref.id)) bySlug.set(ref.slug, (bySlug.get(ref.slug) ?? new Set()).add(ref.id.toLowerCase()))
  }
  const registry = getRegistry(payload.config)
  const parts = [...bySlug].flatMap(([slug, ids]) => {
    const resource = registry.bySlug(slug)
    const names = resource ? publishableOf(resource) : null
    const columns = resource && names ? columnsOf(payload, resource, names) : null
    if (!columns) return []
    const twin = sql.identifier(columns.publishedResource)
    const at = sql.identifier(columns.publishedAt)
    return [
      sql`SELECT ${slug}::text AS slug, d.${twin}::text AS published, d.id::text AS draft
        FROM ${sql.identifier(columns.table)} d
        WHERE d.${twin} = ANY(${`{${[...ids].join(',')}}`}::uuid[])
          AND (d.${at} IS NULL OR d.${at} > ${now.toISOString()}::timestamptz)`,
    ]
  })
  if (parts.length === 0) return new Map()
  const rows = await runSql<{ slug: string; published: string; draft: string }>(
    payload,
    sql.join(parts, sql` UNION ALL `),
    req,
  )
  return new Map(rows.map((row) => [draftKey(row.slug, row.published), row.draft]))
}
