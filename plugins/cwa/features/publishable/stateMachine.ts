import { notFound } from '../../hydra/errors.js'
import type { Doc, PublishContext } from './context.js'
import { emitChanged, emitPublished, inTransaction } from './events.js'
import { TWIN_LINK } from './fields.js'
import { collection, contentOf, findDraft, loadLocked, stripTwinLinks, update } from './records.js'
import { publish } from './publish.js'
import { moveReferences } from './references.js'
import { isPublished, publicationState, twinOf } from './state.js'
import { assertPublishable, publishViolations } from './validation.js'
import { assertCurrent, conflictError, matches, versionOf } from '../../hydra/version.js'

/**
 * The publish state machine: every transition of the contract's table
 * "Publishable component or page data", in one place. Each entry point runs
 * in one transaction and takes an advisory lock on the record's family (the
 * published record and its draft), so concurrent edits and publications of
 * the same content serialise instead of creating a second draft or
 * publishing twice. Its parts: the context (context.ts), the transaction and
 * the publication events (events.ts; every other change is reported by the
 * collection hooks of core/events), reading and
 * locking the twins (records.ts), the publish validation group
 * (validation.ts), moving references between twins (references.ts), the
 * publication itself (publish.ts) and the publication of many drafts at once
 * (publishMany.ts).
 */

// Importers (index.ts, extension.ts, store.ts) take these from here.
export type { PublishContext } from './context.js'
export { publishViolations } from './validation.js'

const isPastOrNow = (value: unknown, now: Date) => value != null && value !== '' && new Date(value as string) <= now
const isFuture = (value: unknown, now: Date) => value != null && value !== '' && new Date(value as string) > now
const hasDate = (value: unknown) => value != null && value !== ''

/**
 * POST. A permitted caller creates a draft (publishedAt null), a scheduled
 * draft (future) or, with a past date, publishes at once. Anyone else
 * publishes at once: publishedAt is set to now. Whenever publishedAt ends up
 * set (published or scheduled), the publish validation group applies.
 */
export async function createRecord(ctx: PublishContext, input: Doc): Promise<Doc> {
  const now = ctx.now ?? new Date()
  const data = stripTwinLinks(ctx, input)
  if (!ctx.permitted) data[ctx.names.publishedAt] = now.toISOString()
  if (hasDate(data[ctx.names.publishedAt])) assertPublishable(ctx, data)
  return inTransaction(ctx, async () => {
    const doc = (await ctx.payload.create({
      collection: collection(ctx),
      data,
      depth: 0,
      overrideAccess: false,
      req: ctx.req,
    })) as Doc
    const id = String(doc.id)
    // The collection hooks report the create; a record created published is a publication.
    if (isPublished(doc, ctx.names, now)) await emitPublished(ctx, id)
    return doc
  })
}

/**
 * PATCH. Returns the record the caller should now see.
 * - Caller without the permission: updates the published record directly (publishedAt untouched); drafts are 404.
 * - Draft, publishedAt set to now/past: publish (validation group); a twin receives the draft's content and the draft goes.
 * - Draft, anything else: the draft is updated (a future publishedAt schedules it, after the validation group).
 * - Published record: the change goes to its draft, created on first edit; a past publishedAt is ignored. No unpublish by PATCH.
 */
export async function updateRecord(ctx: PublishContext, id: string, input: Doc): Promise<Doc> {
  const now = ctx.now ?? new Date()
  const data = stripTwinLinks(ctx, input)
  return inTransaction(ctx, async () => {
    const current = await loadLocked(ctx, id)
    if (!current) throw ctx.expected && ctx.permitted ? conflictError('gone', null, id) : notFound()
    const state = publicationState(current, ctx.names, now)

    if (!ctx.permitted) {
      if (state !== 'published') throw notFound()
      assertCurrent(ctx.expected ?? null, current, id)
      delete data[ctx.names.publishedAt]
      const doc = await update(ctx, id, data)
      return doc
    }

    if (state !== 'published') {
      // A draft (publishing it too): the writer must have read this very version.
      assertCurrent(ctx.expected ?? null, current, id)
      const wantsPublish = ctx.names.publishedAt in data && isPastOrNow(data[ctx.names.publishedAt], now)
      if (wantsPublish) return publish(ctx, { ...current, ...data }, data[ctx.names.publishedAt] as string, data)
      const merged = { ...current, ...data }
      if (hasDate(merged[ctx.names.publishedAt])) assertPublishable(ctx, merged)
      const doc = await update(ctx, id, data)
      return doc
    }

    // A published record: edits go to its draft twin.
    const changes = { ...data }
    if (!isFuture(changes[ctx.names.publishedAt], now)) delete changes[ctx.names.publishedAt]
    const existingDraft = await findDraft(ctx, id)
    if (ctx.expected) {
      // The write goes to the draft: the writer must have read that draft (what a permitted JSON-LD read serves),
      // or, when there is none, this record as it is. A draft created or saved since is someone else's work.
      if (
        existingDraft ? !matches(ctx.expected, versionOf(existingDraft)) : !matches(ctx.expected, versionOf(current))
      ) {
        throw existingDraft ? conflictError('draft', existingDraft, id) : conflictError('record', current, id)
      }
    }
    if (existingDraft) {
      const merged = { ...existingDraft, ...changes }
      if (hasDate(merged[ctx.names.publishedAt])) assertPublishable(ctx, merged)
      const doc = await update(ctx, String(existingDraft.id), changes)
      return doc
    }
    const draftData = {
      ...contentOf(ctx, current),
      [ctx.names.publishedAt]: null,
      ...changes,
      [ctx.names.publishedResource]: id,
    }
    if (hasDate(draftData[ctx.names.publishedAt])) assertPublishable(ctx, draftData)
    let doc: Doc
    try {
      doc = (await ctx.payload.create({
        collection: collection(ctx),
        data: draftData,
        context: { [TWIN_LINK]: true },
        depth: 0,
        overrideAccess: false,
        req: ctx.req,
      })) as Doc
    } finally {
      // The context lives on the request: the permission to link ends with this write.
      if (ctx.req.context) delete (ctx.req.context as Record<string, unknown>)[TWIN_LINK]
    }
    return doc
  })
}

export type DeleteMode = 'auto' | 'published' | 'draft'

/**
 * DELETE.
 * - `auto`: the record named by the IRI. Deleting a published record keeps its draft, which takes over its references.
 * - `published` (`?published=true`): only the published version (of a published IRI, or of a draft's twin); the draft is kept,
 *   its pointer cleared, and it takes over the references. 404 when there is no published version.
 * - `draft` (`?published=false`): only the draft version (of a draft IRI, or the draft of a published IRI); 404 when there is none.
 * Callers without the permission can only delete published records.
 */
export async function deleteRecord(
  ctx: PublishContext,
  id: string,
  { mode = 'auto' }: { mode?: DeleteMode } = {},
): Promise<void> {
  const now = ctx.now ?? new Date()
  await inTransaction(ctx, async () => {
    const current = await loadLocked(ctx, id)
    if (!current) throw notFound()
    const published = isPublished(current, ctx.names, now)
    if (!ctx.permitted && (!published || mode === 'draft')) throw notFound()

    let publishedId: string | null = null
    let draftId: string | null = null
    if (published) {
      publishedId = id
      const draft = await findDraft(ctx, id)
      draftId = draft ? String(draft.id) : null
    } else {
      draftId = id
      publishedId = twinOf(current, ctx.names)
    }

    let target: string | null
    if (mode === 'published') target = published ? id : publishedId
    else if (mode === 'draft') target = published ? draftId : id
    else target = id
    if (!target) throw notFound()

    if (target === publishedId) {
      // The draft (if any) holds the pending content and takes over the references; its pointer is cleared by the database.
      if (draftId) await moveReferences(ctx, publishedId, draftId)
      await ctx.payload.delete({
        collection: collection(ctx),
        id: publishedId,
        depth: 0,
        overrideAccess: false,
        req: ctx.req,
      })
      if (draftId) await emitChanged(ctx, draftId)
    } else {
      await ctx.payload.delete({
        collection: collection(ctx),
        id: target,
        depth: 0,
        overrideAccess: false,
        req: ctx.req,
      })
    }
  })
}

/**
 * A scheduled draft whose date has come replaces its published twin on the
 * next read that sees it (nothing runs at the scheduled moment). Returns
 * whether it was promoted.
 */
export async function promoteDueDraft(ctx: PublishContext, draftId: string): Promise<boolean> {
  const now = ctx.now ?? new Date()
  const full: PublishContext = { ...ctx, permitted: true, system: true }
  return inTransaction(full, async () => {
    const current = await loadLocked(full, draftId)
    if (!current || !twinOf(current, ctx.names) || !isPastOrNow(current[ctx.names.publishedAt], now)) return false
    // A due draft that fails publish validation stays a draft rather than breaking reads.
    if (publishViolations(full, current).length > 0) return false
    await publish(full, current, String(current[ctx.names.publishedAt]))
    return true
  })
}
