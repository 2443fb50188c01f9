import { commitTransaction, initTransaction, killTransaction, ValidationError } from 'payload'
import type { HydraContext } from './context.js'
import { denormalize } from './denormalizer.js'
import { classifyError, forbidden, notFound, unauthorized, violation, ViolationError } from './errors.js'
import type { EndpointResult } from './endpoint.js'
import { isPublicCreate, itemFiltersApply, plannedFollowUps } from './extensions/requestHooks.js'
import { filterWhere, parseCollectionQuery } from './filters.js'
import { dataFields, isUuid, type Resource } from '../core/registry.js'
import { findOne } from '../core/utils/findOne.js'
import { adoptOnCreate } from '../core/hooks/groupAdoption.js'
import { requestInput } from './requestInput.js'
import { storeFor } from './store.js'
import { versionOf } from './version.js'

/** What an operation hands back to the HTTP layer: data the pipeline formats (an item, a collection page, no content). */
export type OperationResult = EndpointResult

/** GET /{collection}: a filtered, ordered, paginated Hydra collection. */
export async function getCollection(resource: Resource, ctx: HydraContext): Promise<OperationResult> {
  const query = parseCollectionQuery(resource, ctx.query)
  const result = await storeFor(resource, ctx).list(query)
  return { status: 200, collection: { resource, page: result, paginated: true } }
}

/**
 * Loads one document as the caller may see it; the resource's filters apply
 * to item requests too (a non-matching search is a 404).
 */
export async function loadItem(resource: Resource, id: string, ctx: HydraContext, { filtered = true } = {}) {
  if (!isUuid(id)) throw notFound()
  // A profile whose front end forwards its page's query string on every item GET turns the rule off.
  if (filtered && !itemFiltersApply(ctx)) filtered = false
  const doc = await storeFor(resource, ctx).load(id.toLowerCase(), filtered ? filterWhere(resource, ctx.query) : [])
  if (!doc) throw notFound()
  return doc
}

export async function getItem(resource: Resource, id: string, ctx: HydraContext): Promise<OperationResult> {
  const doc = await loadItem(resource, id, ctx)
  return { status: 200, item: { resource, doc }, version: versionOf(doc) }
}

type WriteOperation = 'create' | 'update' | 'delete'

/**
 * Runs the collection's access function for a write before the body is read,
 * so that a caller without the right gets 401/403 whatever the body holds
 * (no validation detail, no existence check of the IRIs it names). Payload
 * checks again in the operation itself (overrideAccess: false); a Where
 * result (row-level rule) is left to it.
 */
export async function assertMayWrite(
  resource: Resource,
  operation: WriteOperation,
  ctx: HydraContext,
  id?: string,
): Promise<void> {
  const access = resource.collection.access?.[operation] as
    ((args: { req: HydraContext['req']; id?: string; data?: unknown }) => unknown) | undefined
  if (typeof access !== 'function') return
  let result: unknown
  try {
    result = await access({ req: ctx.req, ...(id === undefined ? {} : { id }) })
  } catch {
    return // an access function that needs the data: Payload runs it with the data in the operation
  }
  if (result !== false) return
  // A create open to anyone (registration) that the resource's access closes is a 403 for anonymous callers too (contract: Errors).
  const open = operation === 'create' && isPublicCreate(resource, ctx.extensions)
  throw ctx.user || open ? forbidden() : unauthorized()
}

/** JSON name of a Payload field path (`email` -> `emailAddress`, `uiClassNames.0` -> `uiClassNames[0]`). */
function jsonPath(resource: Resource, path: string): string {
  const reverse = new Map(Object.entries(resource.meta.aliases ?? {}).map(([json, name]) => [name, json]))
  const [head = '', ...rest] = path.split('.')
  return [reverse.get(head) ?? head, ...rest].reduce((out, part, index) =>
    index === 0 ? part : /^\d+$/.test(part) ? `${out}[${part}]` : `${out}.${part}`,
  )
}

/**
 * Payload's validation errors and the database's constraint errors name
 * Payload fields or columns: report them under the JSON property names. A
 * database error is a violation only when what it is about came from the
 * request (`body`); otherwise it stays a server error (a 500).
 */
function withJsonPaths(resource: Resource, ctx: HydraContext, body: unknown) {
  return (error: unknown): never => {
    const classified =
      error instanceof ValidationError || !(error instanceof Error)
        ? null
        : classifyError(error, false, 'POST', requestInput(ctx.req.url ?? ctx.requestPath, body))
    const violations =
      error instanceof ValidationError
        ? (classifyError(error, false) as ViolationError).violations
        : classified instanceof ViolationError
          ? classified.violations
          : null
    if (violations)
      throw new ViolationError(violations.map((v) => violation(jsonPath(resource, v.propertyPath), v.message, v.code)))
    throw error
  }
}

export async function createItem(resource: Resource, body: unknown, ctx: HydraContext): Promise<OperationResult> {
  await assertMayWrite(resource, 'create', ctx)
  const data = await denormalize(resource, body, ctx)
  // A create that takes over an existing record (core/hooks/groupAdoption.ts): nothing new, so 200 with that record.
  const adopted = await adoptOnCreate(ctx.req, resource.slug, data).catch(withJsonPaths(resource, ctx, body))
  if (adopted) return await adoptedAnswer(resource, adopted, ctx)
  const followUps = await plannedFollowUps(resource, body, ctx)
  const open = isPublicCreate(resource, ctx.extensions)
  const create = async () => {
    const created = await storeFor(resource, ctx)
      .create(data)
      .catch((error: unknown) => {
        // A create open to anyone (registration) that the resource's access closes is a 403 for anonymous callers too (contract: Errors).
        if (open && (error as { name?: string }).name === 'Forbidden') throw forbidden()
        return withJsonPaths(resource, ctx, body)(error)
      })
    if (followUps.length === 0) return created
    for (const followUp of followUps) await followUp(created)
    // The follow-ups may have written rows the record's join fields list (a new component's positions).
    return withJoins(resource, created, ctx)
  }
  // With follow-ups, the record and what goes with it are written together or not at all.
  const doc = followUps.length > 0 ? await inRequestTransaction(ctx, create) : await create()
  const iri = ctx.registry.itemIri(resource, String(doc.id))
  return { status: 201, item: { resource, doc }, headers: { Location: iri, 'Content-Location': iri } }
}

/** The answer of a create that took over an existing record: the body a create (and a GET) answers, with 200. */
async function adoptedAnswer(resource: Resource, id: string, ctx: HydraContext): Promise<OperationResult> {
  const doc = await storeFor(resource, ctx).load(id, [])
  if (!doc) throw notFound()
  const iri = ctx.registry.itemIri(resource, String(doc.id))
  const item = { resource, doc: await withJoins(resource, doc, ctx) }
  return { status: 200, item, headers: { 'Content-Location': iri }, version: versionOf(doc) }
}

export async function updateItem(
  resource: Resource,
  id: string,
  body: unknown,
  ctx: HydraContext,
): Promise<OperationResult> {
  if (!isUuid(id)) throw notFound()
  await assertMayWrite(resource, 'update', ctx, id.toLowerCase())
  const data = await denormalize(resource, body, ctx)
  const doc = await storeFor(resource, ctx)
    .update(id.toLowerCase(), data)
    .catch(withJsonPaths(resource, ctx, body))
  return {
    status: 200,
    item: { resource, doc: await withJoins(resource, doc, ctx) },
    version: versionOf(doc),
  }
}

/**
 * Payload's update answers join fields (a group's or a component's
 * componentPositions) empty although the rows exist: they are read again so
 * that a write answers the body a GET would. One query, only for resources
 * that have join fields; nothing else of the written document changes.
 */
export async function withJoins(
  resource: Resource,
  doc: Record<string, unknown>,
  ctx: HydraContext,
): Promise<Record<string, unknown>> {
  const joins = dataFields(resource.collection.fields).filter((field) => field.type === 'join')
  if (joins.length === 0 || doc.id == null) return doc
  // Only the join fields: a narrower query than the whole record's (Payload builds every column's SQL otherwise).
  const select = Object.fromEntries(joins.map((field) => [field.name, true] as const))
  const fresh = await findOne(ctx.payload, {
    collection: resource.slug,
    where: { id: { equals: doc.id } },
    overrideAccess: false,
    req: ctx.req,
    select,
  })
  if (!fresh) return doc
  const out = { ...doc }
  for (const field of joins) out[field.name] = fresh[field.name]
  return out
}

export async function deleteItem(resource: Resource, id: string, ctx: HydraContext): Promise<OperationResult> {
  if (!isUuid(id)) throw notFound()
  await assertMayWrite(resource, 'delete', ctx, id.toLowerCase())
  await storeFor(resource, ctx).remove(id.toLowerCase())
  return { status: 204 }
}

/** Runs `fn` in the request's transaction (opening one when none is open): committed when it returns, rolled back when it throws. */
async function inRequestTransaction<T>(ctx: HydraContext, fn: () => Promise<T>): Promise<T> {
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
