import { sql } from '@payloadcms/db-postgres'
import { commitTransaction, initTransaction, killTransaction, type Payload, type PayloadRequest } from 'payload'
import { dataFields, getRegistry } from '../../src/hydra/registry'
import { notFound, type Violation, ViolationError } from '../../src/hydra/errors'
import type { ResolvedPublishable } from './options'
import { isPublished, publicationState, twinOf } from './state'

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
  now?: Date
}

/** Emitted after every create/update/delete/publish, for real-time and cache plugins. */
export interface PublishEvent {
  type: 'create' | 'update' | 'delete' | 'publish'
  slug: string
  /** IRIs touched: the published and/or draft record. */
  ids: { published?: string | null; draft?: string | null }
}

export type PublishListener = (event: PublishEvent, req: PayloadRequest) => void | Promise<void>

const listeners = new Set<PublishListener>()

/** Subscribes to publish events (returns an unsubscribe function). */
export function onPublishEvent(listener: PublishListener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

async function emit(event: PublishEvent, req: PayloadRequest): Promise<void> {
  for (const listener of listeners) await listener(event, req)
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

/** Runs `fn` in a transaction (reusing the request's when one is open). */
async function inTransaction<T>(ctx: PublishContext, fn: () => Promise<T>): Promise<T> {
  const started = await initTransaction(ctx.req)
  try {
    const result = await fn()
    if (started) await commitTransaction(ctx.req)
    return result
  } catch (error) {
    if (started) await killTransaction(ctx.req)
    throw error
  }
}

/** Serialises work on one family of twins until the transaction ends. */
async function lockFamily(ctx: PublishContext, rootId: string): Promise<void> {
  const adapter = ctx.payload.db as unknown as { sessions?: Record<string, { db: { execute(q: unknown): Promise<unknown> } }>; drizzle: { execute(q: unknown): Promise<unknown> } }
  const transactionID = await ctx.req.transactionID
  const db = transactionID !== undefined && transactionID !== null ? adapter.sessions?.[String(transactionID)]?.db : undefined
  await (db ?? adapter.drizzle).execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${ctx.slug}:${rootId}`}, 0))`)
}

async function load(ctx: PublishContext, id: string): Promise<Doc | null> {
  const found = await ctx.payload.find({
    collection: collection(ctx),
    where: { id: { equals: id } },
    limit: 1,
    pagination: false,
    depth: 0,
    overrideAccess: true,
    req: ctx.req,
  })
  return (found.docs[0] as Doc | undefined) ?? null
}

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

/** Never obey a client's twin links: the service alone maintains them. */
function stripTwinLinks(ctx: PublishContext, data: Doc): Doc {
  const { [ctx.names.publishedResource]: _p, [ctx.names.draftResource]: _d, ...rest } = data
  return rest
}

/**
 * POST. A permitted caller creates a draft (publishedAt null), a scheduled
 * draft (future) or, with a past date, publishes at once (publish validation
 * applies). Anyone else publishes at once: publishedAt is set to now.
 */
export async function createRecord(ctx: PublishContext, input: Doc): Promise<Doc> {
  const now = ctx.now ?? new Date()
  const data = stripTwinLinks(ctx, input)
  if (!ctx.permitted) data[ctx.names.publishedAt] = now.toISOString()
  if (isPastOrNow(data[ctx.names.publishedAt], now)) assertPublishable(ctx, data)
  return inTransaction(ctx, async () => {
    const doc = (await ctx.payload.create({ collection: collection(ctx), data: data as never, depth: 0, overrideAccess: false, req: ctx.req })) as Doc
    await emit({ type: isPublished(doc, ctx.names, now) ? 'publish' : 'create', slug: ctx.slug, ids: isPublished(doc, ctx.names, now) ? { published: String(doc.id) } : { draft: String(doc.id) } }, ctx.req)
    return doc
  })
}

/**
 * PATCH. Returns the record the caller should now see.
 * - Caller without the permission: updates the published record directly (publishedAt untouched).
 * - Draft, publishedAt set to now/past: publish (validation group); a twin receives the draft's content and the draft goes.
 * - Draft, anything else: the draft is updated (a future publishedAt schedules it).
 * - Published record: the change goes to its draft, created on first edit; a past publishedAt is ignored. No unpublish by PATCH.
 */
export async function updateRecord(ctx: PublishContext, id: string, input: Doc): Promise<Doc> {
  const now = ctx.now ?? new Date()
  const data = stripTwinLinks(ctx, input)
  return inTransaction(ctx, async () => {
    const target = await load(ctx, id)
    if (!target) throw notFound()
    await lockFamily(ctx, twinOf(target, ctx.names) ?? id)
    // Reload under the lock: a concurrent request may have published or created a draft meanwhile.
    const current = await load(ctx, id)
    if (!current) throw notFound()
    const state = publicationState(current, ctx.names, now)

    if (!ctx.permitted) {
      if (state !== 'published') throw notFound()
      delete data[ctx.names.publishedAt]
      const doc = await update(ctx, id, data)
      await emit({ type: 'update', slug: ctx.slug, ids: { published: id } }, ctx.req)
      return doc
    }

    if (state !== 'published') {
      const wantsPublish = ctx.names.publishedAt in data && isPastOrNow(data[ctx.names.publishedAt], now)
      if (!wantsPublish) {
        const doc = await update(ctx, id, data)
        await emit({ type: 'update', slug: ctx.slug, ids: { draft: id, published: twinOf(current, ctx.names) } }, ctx.req)
        return doc
      }
      return publish(ctx, { ...current, ...data }, data[ctx.names.publishedAt] as string)
    }

    // A published record: edits go to its draft twin.
    const changes = { ...data }
    if (!isFuture(changes[ctx.names.publishedAt], now)) delete changes[ctx.names.publishedAt]
    const existingDraft = await findDraft(ctx, id)
    const doc = existingDraft
      ? await update(ctx, String(existingDraft.id), changes)
      : ((await ctx.payload.create({
          collection: collection(ctx),
          data: { ...contentOf(ctx, current), [ctx.names.publishedAt]: null, ...changes, [ctx.names.publishedResource]: id } as never,
          depth: 0,
          overrideAccess: false,
          req: ctx.req,
        })) as Doc)
    await emit({ type: existingDraft ? 'update' : 'create', slug: ctx.slug, ids: { draft: String(doc.id), published: id } }, ctx.req)
    return doc
  })
}

async function update(ctx: PublishContext, id: string, data: Doc): Promise<Doc> {
  return (await ctx.payload.update({ collection: collection(ctx), id, data: data as never, depth: 0, overrideAccess: false, req: ctx.req })) as Doc
}

async function findDraft(ctx: PublishContext, publishedId: string): Promise<Doc | null> {
  const found = await ctx.payload.find({
    collection: collection(ctx),
    where: { [ctx.names.publishedResource]: { equals: publishedId } },
    limit: 1,
    pagination: false,
    depth: 0,
    overrideAccess: true,
    req: ctx.req,
  })
  return (found.docs[0] as Doc | undefined) ?? null
}

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
    await emit({ type: 'publish', slug: ctx.slug, ids: { published: draftId } }, ctx.req)
    return doc
  }
  await moveReferences(ctx, draftId, twinId)
  await ctx.payload.delete({ collection: collection(ctx), id: draftId, depth: 0, overrideAccess: true, req: ctx.req })
  const doc = await update(ctx, twinId, { ...contentOf(ctx, merged), [ctx.names.publishedAt]: publishedAt })
  await emit({ type: 'publish', slug: ctx.slug, ids: { published: twinId, draft: draftId } }, ctx.req)
  return doc
}

/** Points every position and page data property that names `fromId` at `toId` instead. */
async function moveReferences(ctx: PublishContext, fromId: string, toId: string): Promise<void> {
  const registry = getRegistry(ctx.payload.config)
  const positions = await ctx.payload.find({
    collection: 'component_positions' as never,
    where: { and: [{ 'component.relationTo': { equals: ctx.slug } }, { 'component.value': { equals: fromId } }] },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    req: ctx.req,
  })
  for (const position of positions.docs as Doc[]) {
    await ctx.payload.update({
      collection: 'component_positions' as never,
      id: String(position.id),
      data: { component: { relationTo: ctx.slug, value: toId } } as never,
      depth: 0,
      overrideAccess: true,
      req: ctx.req,
    })
  }
  for (const resource of registry.ofKind('pageData')) {
    for (const field of dataFields(resource.collection.fields)) {
      if (field.type !== 'relationship' || field.relationTo !== ctx.slug || field.hasMany) continue
      await ctx.payload.update({
        collection: resource.slug as never,
        where: { [field.name]: { equals: fromId } },
        data: { [field.name]: toId } as never,
        depth: 0,
        overrideAccess: true,
        req: ctx.req,
      })
    }
  }
}

/**
 * DELETE.
 * - `?published=true` on a record with a draft: only the published version goes; the draft stays (its pointer cleared).
 * - The published record itself: the draft (if any) takes over its positions and page data references.
 * - A draft: only the draft goes.
 */
export async function deleteRecord(ctx: PublishContext, id: string, { publishedOnly = false } = {}): Promise<void> {
  const now = ctx.now ?? new Date()
  await inTransaction(ctx, async () => {
    const target = await load(ctx, id)
    if (!target) throw notFound()
    await lockFamily(ctx, twinOf(target, ctx.names) ?? id)
    const current = await load(ctx, id)
    if (!current) throw notFound()
    const published = isPublished(current, ctx.names, now)
    if (!ctx.permitted && !published) throw notFound()
    let draftId: string | null = null
    if (published) {
      const draft = await findDraft(ctx, id)
      draftId = draft ? String(draft.id) : null
      if (draftId && !publishedOnly) await moveReferences(ctx, id, draftId)
    }
    await ctx.payload.delete({ collection: collection(ctx), id, depth: 0, overrideAccess: false, req: ctx.req })
    await emit({ type: 'delete', slug: ctx.slug, ids: published ? { published: id, draft: draftId } : { draft: id } }, ctx.req)
  })
}

/**
 * A scheduled draft whose date has come replaces its published twin on the
 * next read that sees it (nothing runs at the scheduled moment).
 */
export async function promoteDueDraft(ctx: PublishContext, draftId: string): Promise<void> {
  const now = ctx.now ?? new Date()
  const full = { ...ctx, permitted: true }
  await inTransaction(full, async () => {
    const draft = await load(full, draftId)
    const twinId = draft ? twinOf(draft, ctx.names) : null
    if (!draft || !twinId) return
    await lockFamily(full, twinId)
    const current = await load(full, draftId)
    if (!current || !twinOf(current, ctx.names) || !isPastOrNow(current[ctx.names.publishedAt], now)) return
    // A due draft that fails publish validation stays a draft rather than breaking reads.
    if (publishViolations(full, current).length > 0) return
    await publish(full, current, String(current[ctx.names.publishedAt]))
  })
}

/**
 * Beyond the contract: publishes many drafts at once, all or nothing, with
 * one round of events. Each IRI must name a draft of a publishable type.
 */
export async function publishMany(
  payload: Payload,
  req: PayloadRequest,
  drafts: Array<{ ctx: Omit<PublishContext, 'payload' | 'req'>; id: string }>,
): Promise<Doc[]> {
  const out: Doc[] = []
  const first = drafts[0]
  if (!first) return out
  const base: PublishContext = { ...first.ctx, payload, req }
  return inTransaction(base, async () => {
    const now = new Date()
    for (const { ctx: partial, id } of drafts) {
      const ctx: PublishContext = { ...partial, payload, req }
      const draft = await load(ctx, id)
      if (!draft) throw notFound(`No draft ${id}.`)
      await lockFamily(ctx, twinOf(draft, ctx.names) ?? id)
      const current = await load(ctx, id)
      if (!current || publicationState(current, ctx.names, now) === 'published') throw notFound(`No draft ${id}.`)
      out.push(await publish(ctx, current, now.toISOString()))
    }
    return out
  })
}

