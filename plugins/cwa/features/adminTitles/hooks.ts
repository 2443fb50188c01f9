import type { CollectionAfterChangeHook, CollectionAfterReadHook, CollectionBeforeChangeHook } from 'payload'
import { type AdminTitleFunction, fallbackTitle, normalizeTitle } from './derive.js'
import {
  forgetGroups,
  positionTitle,
  refreshComponentPositions,
  refreshPositionTitles,
  TITLE_FIELD,
} from './positions.js'

type Doc = Record<string, unknown>

/** Stores the record's title, derived from what it will hold after this save. */
export const storeTitle =
  (derive: AdminTitleFunction): CollectionBeforeChangeHook =>
  ({ data, originalDoc }) => {
    data[TITLE_FIELD] = normalizeTitle(derive({ ...(originalDoc ?? {}), ...data }))
    return data
  }

/** A record whose content names nothing reads as its type and short id. */
export const fallbackOnRead =
  (label: string): CollectionAfterReadHook =>
  ({ doc }) => {
    if (doc && !doc[TITLE_FIELD] && doc.id) doc[TITLE_FIELD] = fallbackTitle(label, doc.id)
    return doc
  }

/** After a component's title or publication changed, the positions holding it show the new public title. */
export const componentTitleToPositions =
  (watched: string[]): CollectionAfterChangeHook =>
  async ({ collection, doc, previousDoc, req, operation }) => {
    if (operation === 'create') return doc
    const changed = [TITLE_FIELD, ...watched].some(
      (name) =>
        JSON.stringify((previousDoc as Doc | undefined)?.[name] ?? null) !== JSON.stringify((doc as Doc)[name] ?? null),
    )
    if (changed) await refreshComponentPositions(req, { slug: collection.slug, doc })
    return doc
  }

/** A position's title: "group › component". */
export const storePositionTitle: CollectionBeforeChangeHook = async ({ data, originalDoc, req }) => {
  data[TITLE_FIELD] = await positionTitle(req, { ...(originalDoc ?? {}), ...data })
  return data
}

/** A group renamed: its positions' titles follow. */
export const groupReferenceToPositions: CollectionAfterChangeHook = async ({ doc, previousDoc, req, operation }) => {
  forgetGroups(req)
  if (operation === 'update' && (previousDoc as Doc | undefined)?.reference !== doc.reference)
    await refreshPositionTitles(req, { componentGroup: { equals: doc.id } })
  return doc
}
