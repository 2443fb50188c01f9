import type { HydraContext } from '../../src/hydra/context'
import type { HydraExtension } from '../../src/hydra/extension'
import type { Resource } from '../../src/hydra/registry'
import { dataFields } from '../../src/hydra/registry'
import type { Doc } from '../../src/hydra/store'
import { relationId } from '../../src/utils/relations'
import { publishableOf } from './config'
import { publishBulkRoute } from './endpoint'
import { publicationState } from './state'
import { publishContext, publishableStore } from './store'
import { publishViolations } from './stateMachine'

const holdersKey = (slug: string) => `publishable:holders:${slug}`

/**
 * Page data records holding each component as a typed property, counted for
 * a whole batch of components in one query per (page data type, property).
 */
async function countPageDataHolders(docs: Doc[], resource: Resource, ctx: HydraContext): Promise<void> {
  const ids = docs.map((d) => String(d.id))
  const counts = new Map<string, number>(ids.map((id) => [id, 0]))
  if (ids.length > 0) {
    for (const pageData of ctx.registry.ofKind('pageData')) {
      for (const field of dataFields(pageData.collection.fields)) {
        if (field.type !== 'relationship' || field.relationTo !== resource.slug || field.hasMany) continue
        const holders = await ctx.payload.find({
          collection: pageData.slug as never,
          where: { [field.name]: { in: ids } },
          select: { [field.name]: true } as never,
          depth: 0,
          pagination: false,
          overrideAccess: true,
          req: ctx.req,
        })
        for (const holder of holders.docs as Doc[]) {
          const id = relationId(holder[field.name])
          if (id) counts.set(id, (counts.get(id) ?? 0) + 1)
        }
      }
    }
  }
  ctx.memo.set(holdersKey(resource.slug), counts)
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
    if (publishableOf(resource) && resource.meta.kind === 'component') await countPageDataHolders(docs, resource, ctx)
  },

  normalizeItem(item, doc, resource, ctx) {
    const names = publishableOf(resource)
    if (!names) return
    const pctx = publishContext(resource, names, ctx)
    const positions = (doc.componentPositions as { docs?: unknown[] } | undefined)?.docs
    const holders = (ctx.memo.get(holdersKey(resource.slug)) as Map<string, number> | undefined)?.get(String(doc.id)) ?? 0
    const publishedAt = doc[names.publishedAt] ? new Date(doc[names.publishedAt] as string).toISOString() : null
    const metadata = { ...((item._metadata as object | undefined) ?? {}) } as Record<string, unknown>
    metadata.publishable = {
      published: publicationState(doc, names) === 'published',
      publishedAt,
      locationCount: resource.meta.kind === 'component' && Array.isArray(positions) ? positions.length + holders : null,
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

  mount: publishBulkRoute,
}
