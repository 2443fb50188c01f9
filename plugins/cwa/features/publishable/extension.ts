import type { HydraContext } from '../../hydra/context.js'
import type { HydraExtension } from '../../hydra/extension.js'
import type { Resource } from '../../core/registry.js'
import { dataFields } from '../../core/registry.js'
import type { Doc } from '../../hydra/store.js'
import { internalFind } from '../../core/utils/internalFind.js'
import { relationId } from '../../core/utils/relations.js'
import { publishableOf } from './config.js'
import { publishableEndpoints } from './endpoints.js'
import { amendPublishableDocs, describePublishableProperties } from './openapi.js'
import { publicationState } from './state.js'
import { publishContext, publishableStore } from './store.js'
import { publishViolations } from './stateMachine.js'

const holdersKey = (slug: string) => `publishable:holders:${slug}`
const positionsKey = (slug: string) => `publishable:positions:${slug}`

/** The positions of a component as loaded by its `componentPositions` join, or null when the join was not loaded. */
function joinedPositions(doc: Doc): unknown[] | null {
  const join = doc.componentPositions as { docs?: unknown[]; hasNextPage?: boolean } | undefined
  return Array.isArray(join?.docs) && !join.hasNextPage ? join.docs : null
}

/**
 * Page data records holding each component as a typed property, counted for
 * a whole batch of components in one query per (page data type, property);
 * and the positions of the components whose join was not loaded (a write's
 * response), in one query.
 */
async function countLocations(docs: Doc[], resource: Resource, ctx: HydraContext): Promise<void> {
  const ids = docs.map((d) => String(d.id))
  const counts = new Map<string, number>(ids.map((id) => [id, 0]))
  const positions = new Map<string, number>()
  if (ids.length > 0) {
    for (const pageData of ctx.registry.ofKind('pageData')) {
      for (const field of dataFields(pageData.collection.fields)) {
        if (field.type !== 'relationship' || field.relationTo !== resource.slug || field.hasMany) continue
        const holders = await internalFind(ctx.payload, {
          collection: pageData.slug,
          where: { [field.name]: { in: ids } },
          select: { [field.name]: true },
          req: ctx.req,
        })
        for (const holder of holders) {
          const id = relationId(holder[field.name])
          if (id) counts.set(id, (counts.get(id) ?? 0) + 1)
        }
      }
    }
    const unjoined = docs.filter((d) => joinedPositions(d) === null).map((d) => String(d.id))
    if (unjoined.length > 0) {
      const found = await internalFind(ctx.payload, {
        collection: 'component_positions',
        where: {
          and: [{ 'component.relationTo': { equals: resource.slug } }, { 'component.value': { in: unjoined } }],
        },
        select: { component: true },
        req: ctx.req,
      })
      for (const id of unjoined) positions.set(id, 0)
      for (const position of found) {
        const id = relationId(position.component)
        if (id) positions.set(id, (positions.get(id) ?? 0) + 1)
      }
    }
  }
  ctx.memo.set(holdersKey(resource.slug), counts)
  ctx.memo.set(positionsKey(resource.slug), positions)
}

/**
 * The publishable behaviour in the JSON-LD pipeline: its store (draft
 * routing, twins), `_metadata.publishable` for every caller and
 * `_metadata.violations` (publish validation) for permitted callers.
 */
export const publishableExtension: HydraExtension = {
  name: 'publishable',

  store(resource, ctx, fallback) {
    const names = publishableOf(resource)
    return names ? publishableStore(resource, names, ctx, fallback) : undefined
  },

  async prepareItems(docs, resource, ctx) {
    if (publishableOf(resource) && resource.meta.kind === 'component') await countLocations(docs, resource, ctx)
  },

  normalizeItem(item, doc, resource, ctx) {
    const names = publishableOf(resource)
    if (!names) return
    const pctx = publishContext(resource, names, ctx)
    const holders =
      (ctx.memo.get(holdersKey(resource.slug)) as Map<string, number> | undefined)?.get(String(doc.id)) ?? 0
    const positions =
      joinedPositions(doc)?.length ??
      (ctx.memo.get(positionsKey(resource.slug)) as Map<string, number> | undefined)?.get(String(doc.id)) ??
      null
    const publishedAt = doc[names.publishedAt] ? new Date(doc[names.publishedAt] as string).toISOString() : null
    const metadata = { ...((item._metadata as object | undefined) ?? {}) } as Record<string, unknown>
    metadata.publishable = {
      published: publicationState(doc, names) === 'published',
      publishedAt,
      locationCount: resource.meta.kind === 'component' && positions !== null ? positions + holders : null,
    }
    if (pctx.permitted) {
      metadata.violations = publishViolations(pctx, doc)
    } else {
      // Callers who may not see drafts do not learn of them either.
      item[names.draftResource] = null
      item[names.publishedResource] = null
    }
    item._metadata = metadata
  },

  endpoints: publishableEndpoints,
  describeProperties: describePublishableProperties,
  openApi: amendPublishableDocs,
}
