import type { Payload, PayloadRequest, SanitizedCollectionConfig } from 'payload'
import { getCwaMeta } from '../../core/types.js'
import { columnNameOf, tableNameOf } from '../../core/utils/schema.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { normalizeTitle } from './derive.js'
import { positionTitle, POSITIONS, TITLE_FIELD } from './positions.js'

type Doc = Record<string, unknown>
type Derive = (doc: Doc) => string | null | undefined

/**
 * Recomputes every stored admin title (a migration adding the column, or a
 * type whose adminTitle function changed): components and pages first, then
 * positions, which show their components' titles. Written through the
 * database adapter (no hooks, no write events), in `req`'s transaction.
 */
export async function refreshAdminTitles(payload: Payload, req: PayloadRequest): Promise<number> {
  let updated = 0
  const save = async (collection: string, id: unknown, title: string | null, before: unknown) => {
    if (title === (before ?? null)) return
    // Raw SQL on the one column: the adapter's updateOne reads the whole row back, columns a later migration adds included.
    const table = tableNameOf(payload, collection)
    const column = columnNameOf(payload, collection, TITLE_FIELD)
    if (table && column)
      await runSql(
        payload,
        sql`UPDATE ${sql.identifier(table)} SET ${sql.identifier(column)} = ${title} WHERE id = ${String(id)}`,
        req,
      )
    else await payload.db.updateOne({ collection, id: String(id), data: { [TITLE_FIELD]: title }, req })
    updated++
  }
  const titled = payload.config.collections.filter(
    (c) => c.slug !== POSITIONS && c.fields.some((f) => 'name' in f && f.name === TITLE_FIELD),
  )
  for (const collection of titled) {
    const derive = (collection.custom as { cwaAdminTitle?: Derive } | undefined)?.cwaAdminTitle
    if (!derive || !getCwaMeta(collection)) continue
    const docs = await readAll(payload, req, collection)
    for (const doc of docs)
      await save(
        collection.slug,
        doc.id,
        normalizeTitle(derive(doc)),
        await storedTitle(payload, req, collection.slug, doc.id),
      )
  }
  const { docs: positions } = await payload.find({
    collection: POSITIONS,
    depth: 0,
    limit: 0,
    pagination: false,
    req,
  })
  for (const position of positions as Doc[])
    await save(POSITIONS, position.id, await positionTitle(req, position), position[TITLE_FIELD])
  return updated
}

/**
 * Every record of a collection, reading only the columns its table has: an
 * earlier migration calling this runs with today's config, before the
 * migration that adds a column the config now declares (which then
 * refreshes the titles itself). A failed read would end the migration's
 * transaction, so the columns are looked up first.
 */
async function readAll(payload: Payload, req: PayloadRequest, collection: SanitizedCollectionConfig): Promise<Doc[]> {
  const table = tableNameOf(payload, collection.slug)
  const rows = table
    ? await runSql<{ column_name: string }>(
        payload,
        sql`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table}`,
        req,
      )
    : []
  const present = new Set(rows.map((r) => r.column_name))
  const named = collection.fields.filter(
    (f): f is typeof f & { name: string } => 'name' in f && typeof f.name === 'string',
  )
  const missing = named.filter((f) => {
    const column = columnNameOf(payload, collection.slug, f.name)
    return column !== null && present.size > 0 && !present.has(column)
  })
  const select =
    missing.length > 0
      ? Object.fromEntries(named.filter((f) => !missing.includes(f)).map((f): [string, true] => [f.name, true]))
      : undefined
  const { docs } = await payload.find({
    collection: collection.slug,
    depth: 0,
    limit: 0,
    pagination: false,
    req,
    ...(select ? { select } : {}),
  })
  return docs as Doc[]
}

/** The stored value (a read fills an empty title with the fallback, which is not stored). */
async function storedTitle(payload: Payload, req: PayloadRequest, collection: string, id: unknown): Promise<unknown> {
  const table = tableNameOf(payload, collection)
  const column = columnNameOf(payload, collection, TITLE_FIELD)
  if (table && column) {
    const rows = await runSql<Record<string, unknown>>(
      payload,
      sql`SELECT ${sql.identifier(column)} AS title FROM ${sql.identifier(table)} WHERE id = ${String(id)}`,
      req,
    )
    return rows[0]?.title ?? null
  }
  const row = await payload.db.findOne({ collection, where: { id: { equals: id } }, req })
  return (row as Doc | null)?.[TITLE_FIELD] ?? null
}
