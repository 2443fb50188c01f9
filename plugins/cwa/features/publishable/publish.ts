import type { Doc, PublishContext } from './context.js'
import { emitPublished } from './events.js'
import { markHandover } from './handover.js'
import { collection, contentOf, update } from './records.js'
import { moveReferences } from './references.js'
import { twinOf } from './state.js'
import { assertPublishable } from './validation.js'

/**
 * Publishes a draft (`merged`: the stored draft with the request's
 * `changes`). Without a twin the draft itself becomes the published record:
 * the update names only the changes and the date (Payload keeps the stored
 * values of the fields left out). With one, the
 * twin takes the draft's content and publishedAt, every reference to the
 * draft (positions, page data properties) moves to the twin, and the draft
 * is deleted without cascading (handover.ts): what it owned (component
 * groups, the components of page data properties) is the twin's now.
 */
export async function publish(ctx: PublishContext, merged: Doc, publishedAt: string, changes: Doc = {}): Promise<Doc> {
  assertPublishable(ctx, merged)
  const draftId = String(merged.id)
  const twinId = twinOf(merged, ctx.names)
  if (!twinId) {
    const doc = await update(ctx, draftId, { ...changes, [ctx.names.publishedAt]: publishedAt })
    await emitPublished(ctx, draftId)
    return doc
  }
  await moveReferences(ctx, draftId, twinId)
  // The twin takes what the draft owned with its content: deleting the draft must not cascade to it.
  markHandover(ctx.req, ctx.slug, draftId)
  await ctx.payload.delete({ collection: collection(ctx), id: draftId, depth: 0, overrideAccess: true, req: ctx.req })
  const doc = await update(ctx, twinId, { ...contentOf(ctx, merged), [ctx.names.publishedAt]: publishedAt })
  await emitPublished(ctx, twinId)
  return doc
}
