import type { ResolvedPublishable } from '../../publishable/index.js'
import { publishableOf } from '../../publishable/index.js'
import type { StructureSchema } from '../structure/schema.js'
import { sql, type SqlChunk } from '../structure/sql.js'

/**
 * Which version of a publishable record the manifest lists (mirrors the read
 * routing of plugins/publishable/store.ts):
 * - `draft`: a caller with the publish permission: the draft when one exists, else the record;
 * - `public`: anyone else: the published record only (nothing for a draft never published);
 * - `preview`: a permitted caller asking `?at=`: what will be live at that moment, a
 *   scheduled draft due by then instead of its published twin.
 */
export type VersionMode = { kind: 'draft' } | { kind: 'public'; at: Date } | { kind: 'preview'; at: Date }

interface Columns {
  publishedAt: string
  publishedResource: string
}

function columnsOf(schema: StructureSchema, slug: string, names: ResolvedPublishable): Columns | null {
  const publishedAt = schema.columnName(slug, names.publishedAt)
  const publishedResource = schema.columnName(slug, names.publishedResource)
  return publishedAt && publishedResource ? { publishedAt, publishedResource } : null
}

/** The publishable columns of a collection, or null when it is not publishable. */
export function publishableColumns(schema: StructureSchema, slug: string): Columns | null {
  const resource = schema.registry.bySlug(slug)
  const names = resource ? publishableOf(resource) : null
  return names ? columnsOf(schema, slug, names) : null
}

/**
 * SQL giving the id to list for the row `alias` of collection `slug` (NULL:
 * nothing visible), as one correlated expression. `at` is the moment as SQL
 * (a placeholder in a statement built once).
 */
export function shownIdSql(
  schema: StructureSchema,
  slug: string,
  alias: string,
  mode: VersionMode['kind'],
  at: SqlChunk,
): SqlChunk {
  const c = sql.identifier(alias)
  const columns = publishableColumns(schema, slug)
  if (!columns) return sql`${c}.id`
  const table = schema.table(slug)
  const pa = sql.identifier(columns.publishedAt)
  const pr = sql.identifier(columns.publishedResource)
  if (mode === 'draft') return sql`COALESCE((SELECT d.id FROM ${table} d WHERE d.${pr} = ${c}.id LIMIT 1), ${c}.id)`
  const head = sql`COALESCE(${c}.${pr}, ${c}.id)`
  const published = sql`(SELECT h.id FROM ${table} h WHERE h.id = ${head} AND h.${pr} IS NULL AND h.${pa} <= ${at})`
  if (mode === 'public') return published
  return sql`COALESCE((SELECT d.id FROM ${table} d WHERE d.${pr} = ${head} AND d.${pa} <= ${at} LIMIT 1), ${published})`
}

/**
 * The same choice for a record already loaded as a row (`to_jsonb`, column
 * names) with its draft twin: the row to list, or null.
 */
export function pickVersion(
  schema: StructureSchema,
  slug: string,
  row: Record<string, unknown>,
  draft: Record<string, unknown> | null,
  mode: VersionMode,
): Record<string, unknown> | null {
  const columns = publishableColumns(schema, slug)
  if (!columns) return row
  if (mode.kind === 'draft') return draft ?? row
  const due = (r: Record<string, unknown> | null) =>
    !!r?.[columns.publishedAt] && new Date(String(r[columns.publishedAt])) <= mode.at
  if (mode.kind === 'preview' && draft && due(draft)) return draft
  return row[columns.publishedResource] == null && due(row) ? row : null
}
