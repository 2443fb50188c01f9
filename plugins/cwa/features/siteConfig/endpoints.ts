import type { Endpoint } from '../../hydra/endpoint.js'
import { notFound } from '../../hydra/errors.js'
import type { HydraContext } from '../../hydra/context.js'
import { deleteItem, getItem, updateItem } from '../../hydra/operations.js'
import { resourceDocs } from '../../hydra/docs/openapi/resourceOperations.js'
import { isUuid, type Resource, type ResourceRegistry } from '../../core/registry.js'
import { findOne } from '../../core/utils/findOne.js'
import { KEY, SITE_CONFIG_SLUG } from './collection.js'

/** The id of a parameter named by its key (or by its id, as every item IRI). */
async function idOf(resource: Resource, keyOrId: string, ctx: HydraContext): Promise<string> {
  if (isUuid(keyOrId)) return keyOrId
  // What no key can be (a NUL, a slash...) names nothing: no query.
  if (!KEY.test(keyOrId)) throw notFound()
  const doc = await findOne(ctx.payload, {
    collection: resource.slug,
    where: { key: { equals: keyOrId } },
    overrideAccess: false,
    req: ctx.req,
  })
  if (!doc) throw notFound()
  return String(doc.id)
}

/** `{key}`, documented as the generic item operation's `{id}` (its path in the document is unchanged). */
const paramDocs = {
  key: { name: 'id', description: "The parameter's key (`siteName`), or its UUID", schema: { type: 'string' } },
}

/**
 * GET, PATCH and DELETE of one parameter by its key
 * (`PATCH /_/site_config_parameters/siteName`), as the CWA front end
 * addresses them; a UUID still names the parameter by id. The collection
 * GET and POST are the generic ones.
 */
export function siteConfigEndpoints(registry: ResourceRegistry): Endpoint[] {
  const resource = registry.bySlug(SITE_CONFIG_SLUG)
  if (!resource) return []
  const base = `${resource.meta.pathPrefix}/${resource.meta.segment}`
  const generic = `${base}/{id}`
  const path = `${base}/{key}`
  return [
    {
      method: 'GET',
      path,
      supersedes: generic,
      handler: async (ctx, { params }) => getItem(resource, await idOf(resource, params.key!, ctx), ctx),
      paramDocs,
      docs: resourceDocs.getItem(resource),
    },
    {
      method: 'PATCH',
      path,
      supersedes: generic,
      handler: async (ctx, { params, body }) => updateItem(resource, await idOf(resource, params.key!, ctx), body, ctx),
      paramDocs,
      docs: resourceDocs.patch(resource),
    },
    {
      method: 'DELETE',
      path,
      supersedes: generic,
      handler: async (ctx, { params }) => deleteItem(resource, await idOf(resource, params.key!, ctx), ctx),
      paramDocs,
      docs: resourceDocs.delete(resource),
    },
  ]
}
