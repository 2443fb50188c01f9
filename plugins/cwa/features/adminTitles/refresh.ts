import type { Payload, PayloadRequest } from 'payload'
import { getCwaMeta } from '../../core/types.js'
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
    await payload.db.updateOne({ collection, id: String(id), data: { [TITLE_FIELD]: title }, req })
    updated++
  }
  const titled = payload.config.collections.filter((c) => c.slug !== POSITIONS && c.fields.some((f) => 'name' in f && f.name === TITLE_FIELD))
  for (const collection of titled) {
    const derive = (collection.custom as { cwaAdminTitle?: Derive } | undefined)?.cwaAdminTitle
    if (!derive || !getCwaMeta(collection)) continue
    const { docs } = await payload.find({ collection: collection.slug as never, depth: 0, limit: 0, pagination: false, req })
    for (const doc of docs as Doc[]) await save(collection.slug, doc.id, normalizeTitle(derive(doc)), await storedTitle(payload, req, collection.slug, doc.id))
  }
  const { docs: positions } = await payload.find({ collection: POSITIONS as never, depth: 0, limit: 0, pagination: false, req })
  for (const position of positions as Doc[]) await save(POSITIONS, position.id, await positionTitle(req, position), position[TITLE_FIELD])
  return updated
}

/** The stored value (a read fills an empty title with the fallback, which is not stored). */
async function storedTitle(payload: Payload, req: PayloadRequest, collection: string, id: unknown): Promise<unknown> {
  const row = await payload.db.findOne({ collection, where: { id: { equals: id } }, req })
  return (row as Doc | null)?.[TITLE_FIELD] ?? null
}
