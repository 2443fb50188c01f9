import { runSql, sql } from '../../core/utils/sql'
import { commitTransaction, initTransaction, killTransaction, type Payload, type PayloadRequest } from 'payload'
import { dataFields, getRegistry } from '../../hydra/registry'
import { notFound, type Violation, violation, ViolationError } from '../../hydra/errors'
import { relationId } from '../../core/utils/relations'
import { TWIN_LINK } from './fields'
import type { ResolvedPublishable } from './options'
import { isPublished, publicationState, twinOf } from './state'
import { findOne } from '../../core/utils/findOne'

type Doc = Record<string, unknown>

/**
 * The publish state machine: every transition of the contract's table
 * "Publishable component or page data", in one place. Each entry point runs
 * in one transaction and takes an advisory lock on the record's family (the
 * published record and its draft), so concurrent edits and publications of
 * the same content serialise instead of creating a second draft or
 * publishing twice.
 */
export interface PublishContext {
  payload: Payload
  req: PayloadRequest
  slug: string
  shortName: string
  names: ResolvedPublishable
  /** Whether the caller satisfies publishable.permission. */
  permitted: boolean
  /** The service itself acting (a due scheduled draft promoted during someone's read): no access checks. */
  system?: boolean
  now?: Date
}

/**
 * Emitted once per transition (create/update/delete/publish) for real-time
 * and cache plugins, after the transaction that made it has committed (never
 * for a transition that was rolled back).
 */
export interface PublishEvent {
  type: 'create' | 'update' | 'delete' | 'publish'
  slug: string
  /** Ids touched: the published and/or draft record (null: none on that side). */
  ids: { published: string | null; draft: string | null }
  /** The same as IRIs (API prefix included). */
  iris: { published: string | null; draft: string | null }
}

export type PublishListener = (event: PublishEvent, req: PayloadRequest) => void | Promise<void>

const listeners = new Set<PublishListener>()

/** Subscribes to publish events (returns an unsubscribe function). */
export function onPublishEvent(listener: PublishListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Events of the transaction running on a request, sent when its outermost transition commits. */
const pending = new WeakMap<PayloadRequest, PublishEvent[]>()

async function dispatch(events: PublishEvent[], req: PayloadRequest): Promise<void> {
  for (const event of events) {
    for (const listener of listeners) {
      try {
        await listener(event, req)
      } catch (error) {
        // The transition is committed: a failing listener must not turn it into an error response.
        req.payload.logger.error({ err: error, event }, 'publishable event listener failed')
      }
    }
  }
}

function emit(
  ctx: PublishContext,
  type: PublishEvent['type'],
  ids: { published?: string | null; draft?: string | null },
): void {
  const registry = getRegistry(ctx.payload.config)
  const published = ids.published ?? null
  const draft = ids.draft ?? null
  const event: PublishEvent = {
    type,
    slug: ctx.slug,
    ids: { published, draft },
    iris: {
      published: published ? registry.itemIri(ctx.slug, published) : null,
      draft: draft ? registry.itemIri(ctx.slug, draft) : null,
    },
  }
  const queue = pending.get(ctx.req)
  if (queue) queue.push(event)
  else void dispatch([event], ctx.req)
}

const collection = (ctx: PublishContext) => ctx.slug as never

/** Fields copied between twins: the type's content, not ids, timestamps, twin links or computed fields. */
function contentOf(ctx: PublishContext, doc: Doc): Doc {
  const registry = getRegistry(ctx.payload.config)
  const resource = registry.bySlug(ctx.slug)!
  const skip = new Set(['id', 'createdAt', 'updatedAt', ctx.names.publishedAt, ctx.names.publishedResource, ctx.names.draftResource])
  const out: Doc = {}
  for (const field of dataFields(resource.collection.fields)) {
    if (skip.has(field.name) || field.type === 'join' || field.type === 'ui') continue
    if ('virtual' in field && field.virtual) continue
    if (field.name in doc) out[field.name] = doc[field.name]
  }
  return out
}

/**
 * Runs `fn` in a transaction (reusing the request's when one is open). Events
 * emitted inside are held back and dispatched once the outermost call has
 * committed; they are dropped when it fails.
 */
async function inTransaction<T>(ctx: PublishContext, fn: () => Promise<T>): Promise<T> {
  const outermost = !pending.has(ctx.req)
  if (outermost) pending.set(ctx.req, [])
  let started = false
  try {
    started = await initTransaction(ctx.req)
    const result = await fn()
    if (started) await commitTransaction(ctx.req)
    if (outermost) {
      const events = pending.get(ctx.req) ?? []
      pending.delete(ctx.req)
      await dispatch(events, ctx.req)
    }
    return result
  } catch (error) {
    if (started) await killTransaction(ctx.req)
    if (outermost) pending.delete(ctx.req)
    throw error
  }
}

/** Serialises work on one family of twins until the transaction ends. */
async function lockFamily(ctx: PublishContext, rootId: string): Promise<void> {
  await runSql(ctx.payload, sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${ctx.slug}:${rootId}`}, 0))`, ctx.req)
}

/** The current row, whatever the caller may read: transitions decide on the stored state. */
const load = (ctx: PublishContext, id: string): Promise<Doc | null> =>
  findOne(ctx.payload, { collection: ctx.slug, where: { id: { equals: id } }, overrideAccess: true, req: ctx.req })

/** The publish validation groups: required properties and the type's own checks. */
export function publishViolations(ctx: Pick<PublishContext, 'names'>, doc: Doc): Violation[] {
  const group = ctx.names.validationGroups[0] ?? 'published'
  const out: Violation[] = []
  for (const property of ctx.names.requiredOnPublish) {
    const value = doc[property]
    const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
    if (empty) out.push({ propertyPath: property, message: 'This value should not be blank.', code: group })
  }
  for (const v of ctx.names.validate?.(doc) ?? []) out.push({ ...v, code: group })
  return out
}

function assertPublishable(ctx: PublishContext, doc: Doc): void {
  const violations = publishViolations(ctx, doc)
  if (violations.length > 0) throw new ViolationError(violations)
}

const isPastOrNow = (value: unknown, now: Date) => value != null && value !== '' && new Date(value as string) <= now
const isFuture = (value: unknown, now: Date) => value != null && value !== '' && new Date(value as string) > now
const hasDate = (value: unknown) => value != null && value !== ''

/** Never obey a client's twin links: the service alone maintains them. */
function stripTwinLinks(ctx: PublishContext, data: Doc): Doc {
  const { [ctx.names.publishedResource]: _p, [ctx.names.draftResource]: _d, ...rest } = data
  return rest
}

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
    const doc = (await ctx.payload.create({ collection: collection(ctx), data: data as never, depth: 0, overrideAccess: false, req: ctx.req })) as Doc
    const id = String(doc.id)
    if (isPublished(doc, ctx.names, now)) emit(ctx, 'publish', { published: id })
    else emit(ctx, 'create', { draft: id })
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
    if (!current) throw notFound()
    const state = publicationState(current, ctx.names, now)

    if (!ctx.permitted) {
      if (state !== 'published') throw notFound()
      delete data[ctx.names.publishedAt]
      const doc = await update(ctx, id, data)
      emit(ctx, 'update', { published: id })
      return doc
    }

    if (state !== 'published') {
      const wantsPublish = ctx.names.publishedAt in data && isPastOrNow(data[ctx.names.publishedAt], now)
      if (wantsPublish) return publish(ctx, { ...current, ...data }, data[ctx.names.publishedAt] as string)
      const merged = { ...current, ...data }
      if (hasDate(merged[ctx.names.publishedAt])) assertPublishable(ctx, merged)
      const doc = await update(ctx, id, data)
      emit(ctx, 'update', { draft: id, published: twinOf(current, ctx.names) })
      return doc
    }

    // A published record: edits go to its draft twin.
    const changes = { ...data }
    if (!isFuture(changes[ctx.names.publishedAt], now)) delete changes[ctx.names.publishedAt]
    const existingDraft = await findDraft(ctx, id)
    if (existingDraft) {
      const merged = { ...existingDraft, ...changes }
      if (hasDate(merged[ctx.names.publishedAt])) assertPublishable(ctx, merged)
      const doc = await update(ctx, String(existingDraft.id), changes)
      emit(ctx, 'update', { draft: String(doc.id), published: id })
      return doc
    }
    const draftData = { ...contentOf(ctx, current), [ctx.names.publishedAt]: null, ...changes, [ctx.names.publishedResource]: id }
    if (hasDate(draftData[ctx.names.publishedAt])) assertPublishable(ctx, draftData)
    let doc: Doc
    try {
      doc = (await ctx.payload.create({
        collection: collection(ctx),
        data: draftData as never,
        context: { [TWIN_LINK]: true },
        depth: 0,
        overrideAccess: false,
        req: ctx.req,
      })) as Doc
    } finally {
      // The context lives on the request: the permission to link ends with this write.
      if (ctx.req.context) delete (ctx.req.context as Record<string, unknown>)[TWIN_LINK]
    }
    emit(ctx, 'create', { draft: String(doc.id), published: id })
    return doc
  })
}

/**
 * Loads a record and locks its family (the published record and its draft)
 * for the rest of the transaction, then loads it again: a concurrent request
 * may have published it, created its draft or deleted it meanwhile.
 */
async function loadLocked(ctx: PublishContext, id: string): Promise<Doc | null> {
  const target = await load(ctx, id)
  if (!target) return null
  await lockFamily(ctx, twinOf(target, ctx.names) ?? id)
  const current = await load(ctx, id)
  // A draft whose twin changed between the two reads (published meanwhile): lock its new family too.
  if (current && (twinOf(current, ctx.names) ?? id) !== (twinOf(target, ctx.names) ?? id)) return loadLocked(ctx, id)
  return current
}

/** Writes check the caller's access, except when the service itself acts. */
const overrideAccess = (ctx: PublishContext) => ctx.system === true

async function update(ctx: PublishContext, id: string, data: Doc): Promise<Doc> {
  return (await ctx.payload.update({ collection: collection(ctx), id, data: data as never, depth: 0, overrideAccess: overrideAccess(ctx), req: ctx.req })) as Doc
}

const findDraft = (ctx: PublishContext, publishedId: string): Promise<Doc | null> =>
  findOne(ctx.payload, { collection: ctx.slug, where: { [ctx.names.publishedResource]: { equals: publishedId } }, overrideAccess: true, req: ctx.req })

/**
 * Publishes a draft (merged with the request's changes). Without a twin the
 * draft itself becomes the published record. With one, the twin takes the
 * draft's content and publishedAt, every reference to the draft (positions,
 * page data properties) moves to the twin, and the draft is deleted.
 */
async function publish(ctx: PublishContext, merged: Doc, publishedAt: string): Promise<Doc> {
  assertPublishable(ctx, merged)
  const draftId = String(merged.id)
  const twinId = twinOf(merged, ctx.names)
  if (!twinId) {
    const doc = await update(ctx, draftId, { ...contentOf(ctx, merged), [ctx.names.publishedAt]: publishedAt })
    emit(ctx, 'publish', { published: draftId })
    return doc
  }
  await moveReferences(ctx, draftId, twinId)
  await ctx.payload.delete({ collection: collection(ctx), id: draftId, depth: 0, overrideAccess: true, req: ctx.req })
  const doc = await update(ctx, twinId, { ...contentOf(ctx, merged), [ctx.names.publishedAt]: publishedAt })
  emit(ctx, 'publish', { published: twinId, draft: draftId })
  return doc
}

/**
 * Points every reference to `fromId` (component positions, page data
 * properties, and any other relationship to this type in any collection:
 * routes and parents for page data) at `toId` instead.
 */
async function moveReferences(ctx: PublishContext, fromId: string, toId: string): Promise<void> {
  for (const config of ctx.payload.config.collections) {
    for (const field of dataFields(config.fields)) {
      if (field.type !== 'relationship' && field.type !== 'upload') continue
      if (config.slug === ctx.slug && field.name === ctx.names.publishedResource) continue
      const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]
      if (!targets.includes(ctx.slug as never)) continue
      const polymorphic = Array.isArray(field.relationTo)
      const where = polymorphic
        ? { and: [{ [`${field.name}.relationTo`]: { equals: ctx.slug } }, { [`${field.name}.value`]: { equals: fromId } }] }
        : { [field.name]: { equals: fromId } }
      const holders = await ctx.payload.find({
        collection: config.slug as never,
        where: (('hasMany' in field && field.hasMany) ? { [field.name]: { in: [fromId] } } : where) as never,
        depth: 0,
        pagination: false,
        select: { [field.name]: true } as never,
        overrideAccess: true,
        req: ctx.req,
      })
      for (const holder of holders.docs as Doc[]) {
        const swap = (value: unknown) => {
          if (polymorphic) {
            const v = value as { relationTo?: string; value?: unknown } | null
            return v && v.relationTo === ctx.slug && relationId(v.value) === fromId ? { relationTo: ctx.slug, value: toId } : v
          }
          return relationId(value) === fromId ? toId : value
        }
        const current = holder[field.name]
        const next = Array.isArray(current) ? current.map(swap) : swap(current)
        await ctx.payload.update({
          collection: config.slug as never,
          id: holder.id as string,
          data: { [field.name]: next } as never,
          depth: 0,
          overrideAccess: true,
          req: ctx.req,
        })
      }
    }
  }
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
export async function deleteRecord(ctx: PublishContext, id: string, { mode = 'auto' }: { mode?: DeleteMode } = {}): Promise<void> {
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
      await ctx.payload.delete({ collection: collection(ctx), id: publishedId, depth: 0, overrideAccess: false, req: ctx.req })
      emit(ctx, 'delete', { published: publishedId, draft: draftId })
    } else {
      await ctx.payload.delete({ collection: collection(ctx), id: target, depth: 0, overrideAccess: false, req: ctx.req })
      emit(ctx, 'delete', { draft: target, published: publishedId })
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

/**
 * Beyond the contract: publishes many drafts at once, all or nothing, with
 * one round of events after the commit. Each entry must name a draft (with or
 * without a twin, scheduled or not) of a publishable type; anything else
 * refuses the whole request with a violation on its index.
 */
export async function publishMany(
  payload: Payload,
  req: PayloadRequest,
  drafts: Array<{ ctx: Omit<PublishContext, 'payload' | 'req'>; id: string; index: number }>,
): Promise<Doc[]> {
  const first = drafts[0]
  if (!first) return []
  const base: PublishContext = { ...first.ctx, payload, req }
  return inTransaction(base, async () => {
    const now = new Date()
    const bad = (index: number, message: string) => new ViolationError([violation(`iris[${index}]`, message, 'not_a_draft')])
    const entries = drafts.map((entry) => ({ ...entry, ctx: { ...entry.ctx, payload, req } as PublishContext }))
    // Lock every family first, in one fixed order, so two bulk requests cannot deadlock.
    const roots: Array<{ key: string; ctx: PublishContext; root: string }> = []
    for (const entry of entries) {
      const draft = await load(entry.ctx, entry.id)
      if (!draft) throw bad(entry.index, 'No such draft.')
      roots.push({ key: `${entry.ctx.slug}:${twinOf(draft, entry.ctx.names) ?? entry.id}`, ctx: entry.ctx, root: twinOf(draft, entry.ctx.names) ?? entry.id })
    }
    roots.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    for (const { ctx, root } of roots) await lockFamily(ctx, root)
    const out: Doc[] = []
    for (const entry of entries) {
      const current = await load(entry.ctx, entry.id)
      if (!current || publicationState(current, entry.ctx.names, now) === 'published') throw bad(entry.index, 'This is not a draft.')
      const violations = publishViolations(entry.ctx, current)
      if (violations.length > 0) {
        throw new ViolationError(violations.map((v) => ({ ...v, propertyPath: `iris[${entry.index}].${v.propertyPath}` })))
      }
      out.push(await publish(entry.ctx, current, now.toISOString()))
    }
    return out
  })
}
