import type { Payload, PayloadRequest } from 'payload'
import type { RecordRef } from '../structure/descendants'
import { refOf, structureSchema } from '../structure/schema'
import { runSql, sql } from '../structure/sql'
import { publishableColumns } from './versions'

/** One record of the rendering chain: the requested record or one of its ancestors. */
export interface ChainLink extends RecordRef {
  /** The stored row (column names), for page data properties and publication dates. */
  row: Record<string, unknown>
  /** The draft twin's row of a publishable page data record, if any. */
  draft: Record<string, unknown> | null
}

/**
 * The requested record and its ancestors (parentPage / parentPageData),
 * root first, in one recursive query. A parent cycle stops where it repeats.
 */
export async function loadChain(payload: Payload, req: PayloadRequest | undefined, start: RecordRef): Promise<ChainLink[]> {
  const schema = structureSchema(payload)
  const extra = (slug: string) => {
    const columns = slug === 'pages' ? null : publishableColumns(schema, slug)
    const draft = columns
      ? sql`(SELECT to_jsonb(d) FROM ${schema.table(slug)} d WHERE d.${sql.identifier(columns.publishedResource)} = t.id LIMIT 1)`
      : sql`NULL::jsonb`
    return sql`to_jsonb(t) AS row, ${draft} AS draft`
  }
  const rows = await runSql<{ kind: string; id: string; row: Record<string, unknown>; draft: Record<string, unknown> | null }>(
    payload,
    sql`WITH RECURSIVE chain(kind, id, parent_kind, parent_id, row, draft, up, trail) AS (
        SELECT r.kind, r.id, r.parent_kind, r.parent_id, r.row, r.draft, 0, ARRAY[r.id]
        FROM ${schema.recordByRefSql({ kind: sql`${start.kind}::text`, id: sql`${start.id}::uuid` }, extra)} r
        UNION ALL
        SELECT r.kind, r.id, r.parent_kind, r.parent_id, r.row, r.draft, c.up + 1, c.trail || r.id
        FROM chain c CROSS JOIN ${schema.recordByRefSql(refOf('c', 'parent_kind', 'parent_id'), extra)} r
        WHERE NOT r.id = ANY(c.trail)
      )
      SELECT kind, id, row, draft FROM chain ORDER BY up DESC`,
    req,
  )
  return rows.map((r) => ({ kind: r.kind, id: String(r.id), row: r.row, draft: r.draft }))
}
