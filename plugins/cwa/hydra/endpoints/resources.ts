import { resourceDocs } from '../docs/openapi/resourceOperations.js'
import type { Endpoint } from '../endpoint.js'
import type { HydraExtension } from '../extension.js'
import { beforeItemRead, isPublicCreate } from '../extensions/requestHooks.js'
import { createItem, deleteItem, getCollection, getItem, updateItem } from '../operations.js'
import type { Resource, ResourceRegistry } from '../../core/registry.js'

/**
 * The five operations of every resource of the registry: collection GET and
 * POST, item GET, PATCH and DELETE. Item reads pass the extensions'
 * beforeItemRead hooks first (public access that follows routes...).
 */
export function resourceEndpoints(registry: ResourceRegistry, extensions: readonly HydraExtension[]): Endpoint[] {
  return registry.all().flatMap((resource) => operationsOf(resource, extensions))
}

function operationsOf(resource: Resource, extensions: readonly HydraExtension[]): Endpoint[] {
  const collection = `${resource.meta.pathPrefix}/${resource.meta.segment}`
  const item = `${collection}/{id}`
  // The document's shared `{id}` parameter (a UUID; anything else is a 404).
  const paramDocs = { id: { ref: 'id' } }
  // An open create (registration): the resource's own access decides (open or 403), not the generic 401.
  const open = isPublicCreate(resource, extensions)
  return [
    {
      method: 'GET',
      path: collection,
      handler: (ctx) => getCollection(resource, ctx),
      docs: resourceDocs.getCollection(resource),
    },
    {
      method: 'POST',
      path: collection,
      ...(open ? { security: 'public' as const } : {}),
      handler: (ctx, request) => createItem(resource, request.body, ctx),
      docs: resourceDocs.post(resource, { open }),
    },
    {
      method: 'GET',
      path: item,
      handler: async (ctx, { params }) => {
        await beforeItemRead(resource, params.id!, ctx)
        return getItem(resource, params.id!, ctx)
      },
      paramDocs,
      docs: resourceDocs.getItem(resource),
    },
    {
      method: 'PATCH',
      path: item,
      handler: (ctx, { params, body }) => updateItem(resource, params.id!, body, ctx),
      paramDocs,
      docs: resourceDocs.patch(resource),
    },
    {
      method: 'DELETE',
      path: item,
      handler: (ctx, { params }) => deleteItem(resource, params.id!, ctx),
      paramDocs,
      docs: resourceDocs.delete(resource),
    },
  ]
}
