import type { Payload, PayloadRequest } from 'payload'
import type { Resource } from '../../core/registry.js'
import { getItem } from '../../hydra/operations.js'
import { buildContext } from '../../hydra/pipeline/context.js'
import { formatBody } from '../../hydra/pipeline/format.js'
import { asServed as servedByPipeline } from '../../hydra/pipeline/serve.js'
import { handleApiRequest } from '../../hydra/pipeline/handle.js'
import { apiRuntime } from '../../hydra/pipeline/runtime.js'
import type { HydraContext } from '../../hydra/context.js'
import type { JsonLdObject } from '../../hydra/extension.js'

/**
 * The JSON-LD of a record as a hub update carries it: what an anonymous
 * reader gets from the API (the same pipeline: route gates, drafts hidden,
 * every extension), or, when an anonymous reader gets nothing, the admin's
 * view, which only goes out as a private update.
 */

/** The caller an admin-only view is computed for: a super admin that exists only in this read. */
const VIEWER: NonNullable<PayloadRequest['user']> = {
  id: '00000000-0000-4000-8000-000000000000',
  collection: 'users',
  username: 'mercure-viewer',
  email: 'mercure-viewer@invalid',
  roles: ['ROLE_SUPER_ADMIN'],
}

const JSONLD_HEADERS = () => new Headers({ accept: 'application/ld+json' })

/** An anonymous GET of the IRI through the JSON-LD pipeline; null unless it is a 200. */
export async function anonymousView(payload: Payload, base: URL, iri: string): Promise<JsonLdObject | null> {
  const response = await handleApiRequest(payload, {
    method: 'GET',
    url: new URL(iri, base),
    headers: JSONLD_HEADERS(),
    body: null,
  })
  if (!response || response.status !== 200) return null
  const body = response.body
  // A JSON-LD answer is text or bytes; a stream is a file download, never a resource's JSON-LD.
  const text = typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body).toString('utf8') : null
  return text === null ? null : (JSON.parse(text) as JsonLdObject)
}

/**
 * A body in the form the API serves it, through the pipeline's last step
 * (a compatibility profile's IRIs: without the prefix, routes by path):
 * what a view read outside the pipeline, or a delete's `{"@id"}`, carries.
 */
export function asServed<T>(
  payload: Payload,
  body: T,
  ctx: HydraContext | null,
  apiPaths?: ReadonlySet<string>,
): Promise<T> {
  return servedByPipeline(apiRuntime(payload).extensions, { payload, ctx }, body, apiPaths)
}

/** The record as an admin reads it (drafts included), as served; null when it no longer exists. */
export async function adminView(
  payload: Payload,
  base: URL,
  resource: Resource,
  id: string,
  iri: string,
): Promise<JsonLdObject | null> {
  const ctx = await buildContext(payload, new URL(iri, base), JSONLD_HEADERS(), VIEWER)
  try {
    const result = await getItem(resource, id, ctx)
    if (result.status !== 200 || !result.item) return null
    // Read outside the pipeline: its format step normalizes the record, as for an API answer.
    const { json, apiPaths } = await formatBody(ctx, result)
    return await asServed(payload, json as JsonLdObject, ctx, apiPaths)
  } catch {
    return null
  }
}
