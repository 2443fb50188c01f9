import { lowerFirst } from '../utils/naming'
import type { JsonLdObject } from './extension'
import { outputFields } from './item'
import type { Resource, ResourceRegistry } from './registry'

const HYDRA = 'http://www.w3.org/ns/hydra/core#'

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
 * literal (it is computed, free-form data).
 */
export function resourceContext(resource: Resource, registry: ResourceRegistry, baseUrl: string): JsonLdObject {
  const { shortName } = resource.meta
  const terms: JsonLdObject = {
    '@version': 1.1,
    '@vocab': vocab(registry, baseUrl),
    ...hydraTerms(),
    [shortName]: `${shortName}`,
    id: `${shortName}/id`,
  }
  for (const { field, json } of outputFields(resource)) {
    const isRelation = field.type === 'relationship' || field.type === 'upload' || field.type === 'join'
    const isDate = field.type === 'date'
    terms[json] = isRelation
      ? { '@id': `${shortName}/${json}`, '@type': '@id' }
      : field.type === 'json'
        ? { '@id': `${shortName}/${json}`, '@type': '@json' }
        : isDate
          ? { '@id': `${shortName}/${json}`, '@type': 'xsd:dateTime' }
          : `${shortName}/${json}`
  }
  terms.createdAt = { '@id': `${shortName}/createdAt`, '@type': 'xsd:dateTime' }
  terms.modifiedAt = { '@id': `${shortName}/modifiedAt`, '@type': 'xsd:dateTime' }
  terms._metadata = { '@id': `${shortName}/_metadata`, '@type': '@json' }
  if (resource.meta.kind === 'user') terms.roles = `${shortName}/roles`
  return { '@context': terms }
}

export function entrypointContext(registry: ResourceRegistry, baseUrl: string): JsonLdObject {
  const terms: JsonLdObject = { '@version': 1.1, '@vocab': vocab(registry, baseUrl), ...hydraTerms(), Entrypoint: 'Entrypoint' }
  for (const resource of registry.all()) {
    terms[lowerFirst(resource.meta.shortName)] = { '@id': `Entrypoint/${lowerFirst(resource.meta.shortName)}`, '@type': '@id' }
  }
  return { '@context': terms }
}

/** Contexts of the error bodies. */
export function errorContext(name: 'Error' | 'ConstraintViolation', registry: ResourceRegistry, baseUrl: string): JsonLdObject {
  return {
    '@context': {
      '@version': 1.1,
      '@vocab': vocab(registry, baseUrl),
      ...hydraTerms(),
      [name]: name === 'Error' ? 'hydra:Error' : 'ConstraintViolation',
      status: 'hydra:statusCode',
      detail: 'hydra:description',
      type: '@type',
      violations: { '@id': `${name}/violations`, '@type': '@json' },
    },
  }
}
