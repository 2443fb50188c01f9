import type { PayloadRequest } from 'payload'
import { getRegistry } from '../../core/registry.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import { isPublished, publishableOf } from '../publishable/index.js'
import { fallbackTitle } from './derive.js'

export const POSITIONS = 'component_positions'
export const GROUPS = 'component_groups'
export const TITLE_FIELD = 'adminTitle'

type Doc = Record<string, unknown>

/**
 * The title of a component as anyone who may read a position may see it:
 * its own title when it is public (published, or of a type without
 * drafts), else its type and short id, so a position's title never shows a
 * draft's content (positions are public, drafts are not).
 */
async function publicComponentTitle(req: PayloadRequest, slug: string, id: string): Promise<string> {
  const resource = getRegistry(req.payload.config).bySlug(slug)
  const label = resource
    ? String((resource.collection.labels as { singular?: unknown } | undefined)?.singular ?? resource.meta.shortName)
    : slug
  const doc = (await req.payload
    .findByID({ collection: slug as never, id, depth: 0, req, disableErrors: true })
    .catch(() => null)) as Doc | null
  if (!doc) return fallbackTitle(label, id)
  const publishable = resource ? publishableOf(resource) : null
  if (publishable && !isPublished(doc, publishable)) return fallbackTitle(label, id)
  const own = typeof doc[TITLE_FIELD] === 'string' && doc[TITLE_FIELD] ? (doc[TITLE_FIELD] as string) : null
  return own ?? fallbackTitle(label, id)
}

/** "group › component": the group's reference, then what the position shows (a component, a page data property, or nothing). */
export async function positionTitle(req: PayloadRequest, position: Doc): Promise<string> {
  const groupId = relationId(position.componentGroup)
  const group = groupId
    ? ((await req.payload
        .findByID({
          collection: GROUPS as never,
          id: groupId,
          depth: 0,
          req,
          disableErrors: true,
          select: { reference: true } as never,
        })
        .catch(() => null)) as Doc | null)
    : null
  const groupName = typeof group?.reference === 'string' ? group.reference : '(no group)'
  const componentId = relationId(position.component)
  const componentSlug = componentId ? relationCollection(position.component) : null
  if (componentId && componentSlug)
    return `${groupName} › ${await publicComponentTitle(req, componentSlug, componentId)}`
  if (position.pageDataProperty)
    return `${groupName} › ${String(position.pageDataClass ?? '')}.${String(position.pageDataProperty)} (page data)`
  return `${groupName} › (empty: no component, no page data property)`
}

/**
 * Recomputes the stored titles of the positions matching `where` (after a
 * component's title or publication, or a group's reference, changed). Written
 * through the database adapter, in the request's transaction: a title is no
 * content change, so no position hook, write event or cache purge follows.
 */
export async function refreshPositionTitles(req: PayloadRequest, where: Record<string, unknown>): Promise<void> {
  const { docs } = await req.payload.find({
    collection: POSITIONS as never,
    where: where as never,
    depth: 0,
    limit: 0,
    pagination: false,
    req,
  })
  for (const position of docs as Doc[]) {
    const title = await positionTitle(req, position)
    if (title === position[TITLE_FIELD]) continue
    await req.payload.db.updateOne({
      collection: POSITIONS,
      id: String(position.id),
      data: { [TITLE_FIELD]: title },
      req,
    })
  }
}
