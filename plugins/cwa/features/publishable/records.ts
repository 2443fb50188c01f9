import { runSql, sql } from '../../core/utils/sql.js'
import { findOne } from '../../core/utils/findOne.js'
import { dataFields, getRegistry } from '../../core/registry.js'
import { columnsOf } from './columns.js'
import type { Doc, PublishContext } from './context.js'
import { twinOf } from './state.js'

/** Reading, locking and writing the twins (published record and draft) inside a transition. */

export const collection = (ctx: PublishContext) => ctx.slug

/** Fields copied between twins: the type's content, not ids, timestamps, twin links or computed fields. */
export function contentOf(ctx: PublishContext, doc: Doc): Doc {
  const registry = getRegistry(ctx.payload.config)
  const resource = registry.bySlug(ctx.slug)!
  const skip = new Set([
    'id',
    'createdAt',
    'updatedAt',
    ctx.names.publishedAt,
    ctx.names.publishedResource,
    ctx.names.draftResource,
  ])
  const out: Doc = {}
  for (const field of dataFields(resource.collection.fields)) {
    if (skip.has(field.name) || field.type === 'join' || field.type === 'ui') continue
    // A write-only virtual field is an input of the request (an upload's file property): it travels with the content.
    if ('virtual' in field && field.virtual && !resource.meta.writeOnly?.includes(field.name)) continue
    if (field.name in doc) out[field.name] = doc[field.name]
  }
  return out
}

/**
 * Never obey a client's twin links or timestamps: the service alone maintains them (a form sends back
 * the updatedAt it loaded, which a new draft must not inherit: it is the version a later write is checked against).
 */
export function stripTwinLinks(ctx: PublishContext, data: Doc): Doc {
  const {
    [ctx.names.publishedResource]: _p,
    [ctx.names.draftResource]: _d,
    updatedAt: _u,
    createdAt: _c,
    ...rest
  } = data
  return rest
}

/** Serialises work on one family of twins until the transaction ends. */
export async function lockFamily(ctx: PublishContext, rootId: string): Promise<void> {
  await runSql(ctx.payload, sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${ctx.slug}:${rootId}`}, 0))`, ctx.req)
}

/**
 * Serialises work on many families at once (a batch publish), in the order
 * given (sorted here, so two batches cannot deadlock): one statement.
 */
export async function lockFamilies(ctx: PublishContext, keys: string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort()
  if (sorted.length === 0) return
  await runSql(
    ctx.payload,
    sql`SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest(${sql.param(sorted)}::text[]) WITH ORDINALITY AS t(k, n) ORDER BY n`,
    ctx.req,
  )
}

/** The current rows of many records of one type (those that exist), in one query. */
export async function loadMany(ctx: PublishContext, ids: string[]): Promise<Doc[]> {
  const found = await ctx.payload.find({
    collection: ctx.slug,
    where: { id: { in: ids } },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    req: ctx.req,
  })
  return found.docs as Doc[]
}

/** The current row, whatever the caller may read: transitions decide on the stored state. */
export const load = (ctx: PublishContext, id: string): Promise<Doc | null> =>
  findOne(ctx.payload, { collection: ctx.slug, where: { id: { equals: id } }, overrideAccess: true, req: ctx.req })

/**
 * Locks the family of the record as stored (its twin, else itself) in one
 * statement; returns that family's root, or null when there is no such record.
 */
async function lockStoredFamily(ctx: PublishContext, id: string): Promise<string | null | undefined> {
  const resource = getRegistry(ctx.payload.config).bySlug(ctx.slug)
  const columns = resource ? columnsOf(ctx.payload, resource, ctx.names) : null
  if (!columns) return undefined
  const root = sql`COALESCE(${sql.identifier(columns.publishedResource)}::text, id::text)`
  const rows = await runSql<{ root: string }>(
    ctx.payload,
    // The key is lockFamily's: `${slug}:${root}`.
    sql`SELECT ${root} AS root, pg_advisory_xact_lock(hashtextextended(${`${ctx.slug}:`} || ${root}, 0)) FROM ${sql.identifier(columns.table)} WHERE id = ${id}`,
    ctx.req,
  )
  return rows[0]?.root ?? null
}

/**
 * Locks a record's family (the published record and its draft) for the
 * rest of the transaction, then loads the record: a concurrent request may
 * have published it, created its draft or deleted it before the lock was
 * granted, so when its family is no longer the one locked, that one is
 * locked too. Two queries.
 */
export async function loadLocked(ctx: PublishContext, id: string): Promise<Doc | null> {
  let locked = await lockStoredFamily(ctx, id)
  if (locked === undefined) {
    // A table the adapter does not name (never for Payload's own schema): read first, then lock.
    const target = await load(ctx, id)
    if (!target) return null
    locked = twinOf(target, ctx.names) ?? id
    await lockFamily(ctx, locked)
  }
  if (locked === null) return null
  const current = await load(ctx, id)
  // A draft whose twin changed before the lock was granted (published meanwhile): lock its new family too.
  if (current && (twinOf(current, ctx.names) ?? id) !== locked) return loadLocked(ctx, id)
  return current
}

/** Writes check the caller's access, except when the service itself acts. */
const overrideAccess = (ctx: PublishContext) => ctx.system === true

export async function update(ctx: PublishContext, id: string, data: Doc): Promise<Doc> {
  return (await ctx.payload.update({
    collection: collection(ctx),
    id,
    data,
    depth: 0,
    overrideAccess: overrideAccess(ctx),
    req: ctx.req,
  })) as Doc
}

export const findDraft = (ctx: PublishContext, publishedId: string): Promise<Doc | null> =>
  findOne(ctx.payload, {
    collection: ctx.slug,
    where: { [ctx.names.publishedResource]: { equals: publishedId } },
    overrideAccess: true,
    req: ctx.req,
  })
