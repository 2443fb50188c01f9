import type { PaginatedDocs } from 'payload'
import type { HydraContext } from './context.js'
import type { JsonLdObject } from './extension.js'
import { normalizeDocument } from './item.js'
import { hydraClassOverride, shadowsHydraClass } from './jsonldContext.js'
import type { Resource } from '../core/registry.js'
import { contextIri } from './serializer.js'

/** Lets extensions load what they need for a batch of documents in one go. */
export async function prepareItems(
  resource: Resource,
  docs: Record<string, unknown>[],
  ctx: HydraContext,
): Promise<void> {
  for (const extension of ctx.extensions) await extension.prepareItems?.(docs, resource, ctx)
}

/** One item through the pipeline: document fields, then every extension. */
export async function normalizeItem(
  resource: Resource,
  doc: Record<string, unknown>,
  ctx: HydraContext,
  { withContext = true, prepared = false }: { withContext?: boolean; prepared?: boolean } = {},
): Promise<JsonLdObject> {
  if (!prepared && withContext) await prepareItems(resource, [doc], ctx)
  const item = normalizeDocument(resource, doc, ctx)
  for (const extension of ctx.extensions) {
    await extension.normalizeItem?.(item, doc, resource, ctx)
  }
  return withContext ? { '@context': contextIri(ctx.options.apiPrefix, resource.meta.shortName), ...item } : item
}

/** A Hydra collection with its PartialCollectionView. */
export async function normalizeCollection(
  resource: Resource,
  result: PaginatedDocs<Record<string, unknown>>,
  ctx: HydraContext,
  paginated: boolean,
): Promise<JsonLdObject> {
  const member: JsonLdObject[] = []
  await prepareItems(resource, result.docs, ctx)
  for (const doc of result.docs)
    member.push(await normalizeItem(resource, doc, ctx, { withContext: false, prepared: true }))
  const { shortName } = resource.meta
  const context = contextIri(ctx.options.apiPrefix, shortName)
  return {
    // A resource named like a Hydra class (the Collection component) maps that name to
    // its own class in its context; the collection document maps it back to Hydra's.
    '@context': shadowsHydraClass(shortName) ? [context, hydraClassOverride(shortName)] : context,
    '@id': resource.collectionIri,
    '@type': 'Collection',
    totalItems: result.totalDocs,
    member,
    view: partialView(resource.collectionIri, ctx.query, result, paginated),
  }
}

function pageUrl(base: string, query: URLSearchParams, page: number | null): string {
  const params = new URLSearchParams(query)
  if (page === null) params.delete('page')
  else params.set('page', String(page))
  const qs = params.toString()
  return qs ? `${base}?${qs}` : base
}

/** The `view` of a collection: @id of this page plus first/last/previous/next where they apply. */
export function partialView(
  base: string,
  query: URLSearchParams,
  result: Pick<PaginatedDocs, 'page' | 'totalPages' | 'hasNextPage' | 'hasPrevPage'>,
  paginated: boolean,
): JsonLdObject {
  if (!paginated) return { '@id': pageUrl(base, query, null), '@type': 'PartialCollectionView' }
  const page = result.page ?? 1
  const last = Math.max(result.totalPages ?? 1, 1)
  const view: JsonLdObject = {
    '@id': pageUrl(base, query, page),
    '@type': 'PartialCollectionView',
    first: pageUrl(base, query, 1),
    last: pageUrl(base, query, last),
  }
  if (page > 1) view.previous = pageUrl(base, query, Math.min(page - 1, last))
  if (page < last) view.next = pageUrl(base, query, page + 1)
  return view
}
