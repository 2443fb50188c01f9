import type { PaginatedDocs } from 'payload'
import type { HydraContext } from './context.js'
import type { JsonLdObject } from './extension.js'
import { completeItem, prepareItems } from './extensions/formatHooks.js'
import { normalizeDocument } from './item.js'
import { hydraClassOverride, shadowsHydraClass } from './jsonldContext.js'
import type { Resource } from '../core/registry.js'
import { contextIri } from './serializer.js'
import { partialView } from './collectionView.js'

/** One item through the pipeline: document fields, then every extension. */
export async function normalizeItem(
  resource: Resource,
  doc: Record<string, unknown>,
  ctx: HydraContext,
  { withContext = true, prepared = false }: { withContext?: boolean; prepared?: boolean } = {},
): Promise<JsonLdObject> {
  if (!prepared && withContext) await prepareItems([doc], resource, ctx)
  const item = normalizeDocument(resource, doc, ctx)
  await completeItem(item, doc, resource, ctx)
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
  await prepareItems(result.docs, resource, ctx)
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
