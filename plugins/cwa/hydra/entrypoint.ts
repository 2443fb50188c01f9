import { lowerFirst } from '../core/utils/naming.js'
import type { JsonLdObject } from './extension.js'
import type { ResourceRegistry } from '../core/registry.js'
import { contextIri } from './serializer.js'

/** GET {prefix}/: the IRI of every resource collection, keyed like API Platform (lowerCamel short name). */
export function entrypoint(registry: ResourceRegistry): JsonLdObject {
  const prefix = registry.apiPrefix
  const out: JsonLdObject = {
    '@context': contextIri(prefix, 'Entrypoint'),
    '@id': prefix || '/',
    '@type': 'Entrypoint',
  }
  for (const resource of registry.all()) out[lowerFirst(resource.meta.shortName)] = resource.collectionIri
  return out
}
