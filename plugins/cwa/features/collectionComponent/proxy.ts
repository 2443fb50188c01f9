import type { HydraContext } from '../../hydra/context.js'
import type { JsonLdObject } from '../../hydra/extension.js'
import { parseCollectionQuery } from '../../hydra/filters.js'
import { embedCollection, type EmbeddedCollection } from '../../hydra/embedded.js'
import { partialView } from '../../hydra/collectionView.js'
import { storeFor } from '../../hydra/store.js'
import type { Resource } from '../../core/registry.js'

/**
 * The read-only `collection` of a Collection component: the proxied
 * collection request, run in-process with the caller's own request (so the
 * caller's permissions, draft routing and route gates apply exactly as on
 * a direct GET of `resourceIri`).
 */

/** Set on the memo of a proxied request: a Collection read inside one is not filled again (no recursion). */
const INSIDE_PROXY = 'collection:insideProxy'
/** Proxied collections of this request, by resource and query: several Collections asking the same thing cost one read. */
const RESULTS = 'collection:results'

type Doc = Record<string, unknown>

/** `{order: {createdAt: 'desc'}, tags: ['a']}` as query parameters: `order[createdAt]=desc&tags[]=a`. */
function appendParameters(query: URLSearchParams, prefix: string, value: unknown): void {
  if (value === undefined) return
  if (Array.isArray(value)) {
    for (const entry of value) appendParameters(query, `${prefix}[]`, entry)
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) appendParameters(query, `${prefix}[${key}]`, inner)
  } else {
    query.append(prefix, value === null ? '' : String(value))
  }
}

/** Whether this request reads the Collection itself (its item IRI), rather than a list that holds it. */
function readsItself(doc: Doc, ctx: HydraContext): boolean {
  return ctx.requestPath
    .replace(/\/+$/, '')
    .toLowerCase()
    .endsWith(`/${String(doc.id).toLowerCase()}`)
}

/**
 * The query of the proxied request: defaultQueryParameters, each overridden
 * by a parameter of the same name the client sent with a GET of this
 * Collection (an empty value too: `?search=` clears a default search). A
 * Collection read as a member of a list uses its defaults only (the list's
 * own parameters are about the list).
 */
export function proxiedQuery(doc: Doc, ctx: HydraContext): URLSearchParams {
  const query = new URLSearchParams()
  const defaults = doc.defaultQueryParameters
  if (defaults && typeof defaults === 'object' && !Array.isArray(defaults)) {
    for (const [key, value] of Object.entries(defaults)) appendParameters(query, key, value)
  }
  if (!readsItself(doc, ctx)) return query
  for (const key of new Set(ctx.query.keys())) {
    query.delete(key)
    for (const value of ctx.query.getAll(key)) query.append(key, value)
  }
  return query
}

interface Proxied {
  target: Resource
  query: URLSearchParams
  /** The page read, normalized by the pipeline where the Collection embeds it (with this read's context). */
  body: EmbeddedCollection
  page: { page: number; totalPages: number; hasNextPage: boolean; hasPrevPage: boolean }
}

function keyOf(target: Resource, query: URLSearchParams, perPage: unknown): string {
  const sorted = [...query.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([target.slug, sorted, perPage ?? null])
}

function resultsOf(ctx: HydraContext): Map<string, Promise<Proxied | null>> {
  let results = ctx.memo.get(RESULTS) as Map<string, Promise<Proxied | null>> | undefined
  if (!results) {
    results = new Map()
    ctx.memo.set(RESULTS, results)
  }
  return results
}

/** The proxied read itself; null when the caller may not list the resource (401/403 there). */
async function runProxy(
  target: Resource,
  query: URLSearchParams,
  perPage: unknown,
  ctx: HydraContext,
): Promise<Proxied | null> {
  // A memo of its own (a copy: what the request already loaded is reused, the proxied batch never overwrites the caller's).
  const inner: HydraContext = { ...ctx, query, requestPath: target.collectionIri, memo: new Map(ctx.memo) }
  inner.memo.set(INSIDE_PROXY, true)
  inner.memo.delete(RESULTS)
  const collectionQuery = parseCollectionQuery(target, query)
  if (typeof perPage === 'number' && !query.has('itemsPerPage')) collectionQuery.limit = perPage
  let result
  try {
    result = await storeFor(target, inner).list(collectionQuery)
  } catch (error) {
    const status = (error as { status?: unknown }).status
    const name = (error as { name?: unknown }).name
    if (status === 401 || status === 403 || name === 'Forbidden') return null
    throw error
  }
  const body = embedCollection(target, result, inner)
  return {
    target,
    query,
    body,
    page: {
      page: result.page ?? 1,
      totalPages: result.totalPages,
      hasNextPage: result.hasNextPage,
      hasPrevPage: result.hasPrevPage,
    },
  }
}

/** Starts (or reuses) the proxied read of one Collection record; undefined when it is not to be filled. */
function proxiedFor(doc: Doc, ctx: HydraContext): Promise<Proxied | null> | undefined {
  if (ctx.memo.get(INSIDE_PROXY)) return undefined
  const target = ctx.registry.parseIri(doc.resourceIri)
  if (!target || target.id) return undefined
  const query = proxiedQuery(doc, ctx)
  const results = resultsOf(ctx)
  const key = keyOf(target.resource, query, doc.perPage)
  let pending = results.get(key)
  if (!pending) {
    pending = runProxy(target.resource, query, doc.perPage, ctx)
    results.set(key, pending)
  }
  return pending
}

/** Runs the proxied reads of a batch of Collection records once each, one after another (one database connection per request). */
export async function prepareCollections(docs: Doc[], ctx: HydraContext): Promise<void> {
  for (const doc of docs) await proxiedFor(doc, ctx)
}

/**
 * `collection` of one Collection record: the proxied Hydra collection, its
 * `view` pointing at the component's own IRI with the page parameters, so
 * a client pages through the component. null when nothing is to be shown
 * (the caller may not list the resource, or a Collection inside a proxied
 * read).
 */
export async function fillCollection(item: JsonLdObject, doc: Doc, ctx: HydraContext): Promise<void> {
  const pending = proxiedFor(doc, ctx)
  const proxied = pending ? await pending : null
  if (!proxied?.body) {
    item.collection = null
    return
  }
  const own = String(item['@id'])
  // The view keeps the parameters the client sent to the component (not its defaults, which apply anyway).
  const sent = readsItself(doc, ctx) ? new URLSearchParams(ctx.query) : new URLSearchParams()
  item.collection = proxied.body.withView(partialView(own, sent, proxied.page, true))
}
