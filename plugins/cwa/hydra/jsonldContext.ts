import { lowerFirst } from '../core/utils/naming.js'
import type { HydraExtension, JsonLdObject } from './extension.js'
import { describeContext } from './extensions/formatHooks.js'
import { outputFields } from './item.js'
import type { Resource, ResourceRegistry } from '../core/registry.js'

const HYDRA = 'http://www.w3.org/ns/hydra/core#'

/** Hydra classes used as @type of collection documents (`Collection`, `PartialCollectionView`). */
export const HYDRA_CLASSES = new Set(['Collection', 'PartialCollectionView'])

/**
 * Whether a resource's short name is also the name of a Hydra class used in
 * its collection documents (the built-in `Collection` component). In its
 * context the short name must denote the resource class (items are typed
 * with it), so collection documents of that resource override the term
 * back to Hydra's class and scope the resource class to `member`.
 */
export function shadowsHydraClass(shortName: string): boolean {
  return HYDRA_CLASSES.has(shortName)
}

/** The inline context collection documents of such a resource add after the resource context. */
export function hydraClassOverride(shortName: string): JsonLdObject {
  return { [shortName]: `hydra:${shortName}` }
}

/** Hydra terms used without prefix in every document (the API uses no hydra: prefix). */
function hydraTerms(): JsonLdObject {
  return {
    hydra: HYDRA,
    xsd: 'http://www.w3.org/2001/XMLSchema#',
    Collection: 'hydra:Collection',
    PartialCollectionView: 'hydra:PartialCollectionView',
    member: { '@id': 'hydra:member', '@container': '@set' },
    totalItems: { '@id': 'hydra:totalItems', '@type': 'xsd:integer' },
    view: { '@id': 'hydra:view' },
    first: { '@id': 'hydra:first', '@type': '@id' },
    last: { '@id': 'hydra:last', '@type': '@id' },
    next: { '@id': 'hydra:next', '@type': '@id' },
    previous: { '@id': 'hydra:previous', '@type': '@id' },
    title: 'hydra:title',
    description: 'hydra:description',
  }
}

function vocab(registry: ResourceRegistry, baseUrl: string): string {
  return `${baseUrl}${registry.apiPrefix}/docs.jsonld#`
}

/**
 * The JSON-LD context of a resource: every serialized property mapped into
 * the API's vocabulary, relations typed as @id, `_metadata` kept as a JSON
 * literal (it is computed, free-form data), then the terms the extensions
 * add for properties they output (describeContext).
 */
export function resourceContext(
  resource: Resource,
  registry: ResourceRegistry,
  baseUrl: string,
  extensions: readonly HydraExtension[] = [],
): JsonLdObject {
  const { shortName } = resource.meta
  const terms: JsonLdObject = {
    '@version': 1.1,
    '@vocab': vocab(registry, baseUrl),
    ...hydraTerms(),
    [shortName]: `${shortName}`,
    id: `${shortName}/id`,
  }
  for (const { field, json } of outputFields(resource)) {
    const id = `${shortName}/${json}`
    terms[json] = RELATION_TYPES.has(field.type)
      ? { '@id': id, '@type': '@id' }
      : JSON_TYPES.has(field.type)
        ? { '@id': id, '@type': '@json' }
        : field.type === 'date'
          ? { '@id': id, '@type': 'xsd:dateTime' }
          : id
  }
  terms.createdAt = { '@id': `${shortName}/createdAt`, '@type': 'xsd:dateTime' }
  terms.modifiedAt = { '@id': `${shortName}/modifiedAt`, '@type': 'xsd:dateTime' }
  terms._metadata = { '@id': `${shortName}/_metadata`, '@type': '@json' }
  describeContext(extensions, resource, terms)
  if (shadowsHydraClass(shortName)) {
    // Members keep the resource class even where the collection document maps the name to Hydra's.
    terms.member = { ...(terms.member as JsonLdObject), '@context': { [shortName]: shortName } }
  }
  return { '@context': terms }
}

/** Field types whose values are IRIs. */
const RELATION_TYPES = new Set(['relationship', 'upload', 'join'])

/**
 * Field types whose values are free-form JSON (objects, arrays of objects):
 * JSON literals, so that their keys are not read as JSON-LD properties.
 */
const JSON_TYPES = new Set(['json', 'richText', 'group', 'array', 'blocks'])

export function entrypointContext(registry: ResourceRegistry, baseUrl: string): JsonLdObject {
  const terms: JsonLdObject = {
    '@version': 1.1,
    '@vocab': vocab(registry, baseUrl),
    ...hydraTerms(),
    Entrypoint: 'Entrypoint',
  }
  for (const resource of registry.all()) {
    terms[lowerFirst(resource.meta.shortName)] = {
      '@id': `Entrypoint/${lowerFirst(resource.meta.shortName)}`,
      '@type': '@id',
    }
  }
  return { '@context': terms }
}

/**
 * Contexts of the error bodies. `description` is Hydra's; `detail` (the same
 * text, RFC 7807 name) and `type` (an RFC 7807 problem type: a URI reference,
 * not the node's @type, which the body carries separately) and `message`
 * (the same text again, for clients that show it as is) get terms of
 * their own, so a processor sees one @type and one description.
 */
export function errorContext(
  name: 'Error' | 'ConstraintViolation',
  registry: ResourceRegistry,
  baseUrl: string,
): JsonLdObject {
  return {
    '@context': {
      '@version': 1.1,
      '@vocab': vocab(registry, baseUrl),
      ...hydraTerms(),
      [name]: name === 'Error' ? 'hydra:Error' : 'ConstraintViolation',
      status: { '@id': 'hydra:statusCode', '@type': 'xsd:integer' },
      detail: `${name}/detail`,
      message: `${name}/message`,
      type: { '@id': `${name}/type`, '@type': '@id' },
      violations: { '@id': `${name}/violations`, '@type': '@json' },
    },
  }
}
