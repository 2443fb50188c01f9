import type { HydraExtension } from '../../hydra/extension.js'
import { computed } from '../../hydra/docs/openapi/properties.js'
import type { Resource } from '../../core/registry.js'
import { fillCollection, prepareCollections } from './proxy.js'

/** The built-in Collection type (its short name; a site may not declare another). */
const isCollection = (resource: Resource) =>
  resource.meta.kind === 'component' && resource.meta.shortName === 'Collection'

/** Fills the read-only `collection` of Collection components (proxy.ts). */
export const collectionExtension: HydraExtension = {
  name: 'collectionComponent',
  async prepareItems(docs, resource, ctx) {
    if (isCollection(resource)) await prepareCollections(docs, ctx)
  },
  async normalizeItem(item, doc, resource, ctx) {
    if (isCollection(resource)) await fillCollection(item, doc, ctx)
  },
  describeProperties(resource, properties) {
    if (!isCollection(resource)) return
    properties.push({
      ...computed(
        'collection',
        {
          type: 'object',
          description:
            "The proxied Hydra collection of resourceIri, read with the caller's permissions; its view pages through this component",
          properties: {
            member: { type: 'array', items: { type: 'object' } },
            totalItems: { type: 'integer' },
            view: { type: 'object' },
          },
        },
        'rdf:JSON',
        'The proxied collection (read-only; null when the caller may not list it)',
      ),
      alwaysSet: false,
    })
  },
}
