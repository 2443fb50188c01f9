import { lowerFirst } from '../../core/utils/naming.js'
import type { Resource, ResourceRegistry } from '../../core/registry.js'
import type { HydraExtension } from '../extension.js'
import { type PropertyDescription, resourceProperties } from './openapi/index.js'

/**
 * The Hydra ApiDocumentation of the API (served as {prefix}/docs.jsonld),
 * shaped like API Platform's. Classes and properties are named in the API's
 * vocabulary `{baseUrl}{prefix}/docs.jsonld#`, the same one the contexts of
 * src/hydra/jsonldContext.ts map every term into: `#Page` is the class a
 * Page item's @type expands to, `#Page/title` its `title` property.
 */

type Node = Record<string, unknown>

const CONTENT_TYPE_HEADER = 'Content-Type'

function context(docsUrl: string): Node {
  return {
    '@vocab': `${docsUrl}#`,
    // Relative IRIs (#Page, #Page/title) resolve against the documentation itself, wherever it is read from.
    '@base': docsUrl,
    hydra: 'http://www.w3.org/ns/hydra/core#',
    rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
    rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
    xmls: 'http://www.w3.org/2001/XMLSchema#',
    owl: 'http://www.w3.org/2002/07/owl#',
    schema: 'https://schema.org/',
    domain: { '@id': 'rdfs:domain', '@type': '@id' },
    range: { '@id': 'rdfs:range', '@type': '@id' },
    subClassOf: { '@id': 'rdfs:subClassOf', '@type': '@id' },
    expects: { '@id': 'hydra:expects', '@type': '@id' },
    returns: { '@id': 'hydra:returns', '@type': '@id' },
  }
}

function operation(
  method: string,
  type: string,
  title: string,
  { expects, returns, contentTypes }: { expects?: string; returns: string; contentTypes?: string[] },
): Node {
  const op: Node = {
    '@type': ['hydra:Operation', type],
    'hydra:method': method,
    'hydra:title': title,
    'rdfs:label': title,
    returns,
  }
  if (expects) op.expects = expects
  if (contentTypes) {
    op['hydra:expectsHeader'] = [
      {
        '@type': 'hydra:HeaderSpecification',
        'hydra:headerName': CONTENT_TYPE_HEADER,
        'hydra:possibleValue': contentTypes,
      },
    ]
  }
  return op
}

function itemOperations(resource: Resource): Node[] {
  const cls = `#${resource.meta.shortName}`
  const name = resource.meta.shortName
  return [
    operation('GET', 'schema:FindAction', `Retrieves a ${name} resource.`, { returns: cls }),
    operation('PATCH', 'schema:UpdateAction', `Updates the ${name} resource.`, {
      expects: cls,
      returns: cls,
      contentTypes: ['application/merge-patch+json'],
    }),
    operation('DELETE', 'schema:DeleteAction', `Deletes the ${name} resource.`, { returns: 'owl:Nothing' }),
  ]
}

function collectionOperations(resource: Resource): Node[] {
  const cls = `#${resource.meta.shortName}`
  const name = resource.meta.shortName
  return [
    operation('GET', 'schema:FindAction', `Retrieves the collection of ${name} resources.`, {
      returns: 'hydra:Collection',
    }),
    operation('POST', 'schema:CreateAction', `Creates a ${name} resource.`, {
      expects: cls,
      returns: cls,
      contentTypes: ['application/ld+json', 'application/json'],
    }),
  ]
}

function supportedProperty(resource: Resource, p: PropertyDescription): Node {
  const cls = `#${resource.meta.shortName}`
  const property: Node = {
    '@id': `${cls}/${p.json}`,
    '@type': p.targets && p.targets.length > 0 ? 'hydra:Link' : 'rdf:Property',
    'rdfs:label': p.json,
    domain: cls,
  }
  if (p.range) property.range = p.range
  if (p.targets && !p.many) property['owl:maxCardinality'] = 1
  const node: Node = {
    '@type': 'hydra:SupportedProperty',
    'hydra:property': property,
    'hydra:title': p.json,
    'hydra:required': p.requiredOnCreate,
    'hydra:readable': p.readable,
    'hydra:writeable': p.writable,
  }
  if (p.description) node['hydra:description'] = p.description
  return node
}

function resourceClass(resource: Resource, registry: ResourceRegistry, extensions: readonly HydraExtension[]): Node {
  const { shortName } = resource.meta
  const description = (resource.collection.admin as { description?: unknown } | undefined)?.description
  return {
    '@id': `#${shortName}`,
    '@type': 'hydra:Class',
    'rdfs:label': shortName,
    'hydra:title': shortName,
    ...(typeof description === 'string' && description ? { 'hydra:description': description } : {}),
    'hydra:supportedProperty': resourceProperties(resource, registry, extensions).map((p) =>
      supportedProperty(resource, p),
    ),
    'hydra:supportedOperation': itemOperations(resource),
  }
}

function entrypointClass(registry: ResourceRegistry, entrypointIri: string): Node {
  return {
    '@id': '#Entrypoint',
    '@type': 'hydra:Class',
    'hydra:title': 'The API entrypoint',
    'hydra:supportedProperty': registry.all().map((resource) => {
      const key = lowerFirst(resource.meta.shortName)
      const label = `The collection of ${resource.meta.shortName} resources`
      return {
        '@type': 'hydra:SupportedProperty',
        'hydra:property': {
          '@id': `#Entrypoint/${key}`,
          '@type': 'hydra:Link',
          'rdfs:label': label,
          domain: '#Entrypoint',
          range: 'hydra:Collection',
          'owl:maxCardinality': 1,
          'hydra:supportedOperation': collectionOperations(resource),
        },
        'hydra:title': key,
        'hydra:description': label,
        'hydra:readable': true,
        'hydra:writeable': false,
      }
    }),
    'hydra:supportedOperation': [
      {
        ...operation('GET', 'schema:FindAction', 'The API entrypoint.', { returns: '#Entrypoint' }),
        'hydra:target': entrypointIri,
      },
    ],
  }
}

function constraintViolationClass(): Node {
  return {
    '@id': '#ConstraintViolation',
    '@type': 'hydra:Class',
    'hydra:title': 'A constraint violation',
    'hydra:description': 'The body of a 422 response: the violated constraints, one per invalid property.',
    'hydra:supportedProperty': [
      {
        '@type': 'hydra:SupportedProperty',
        'hydra:property': {
          '@id': '#ConstraintViolation/violations',
          '@type': 'rdf:Property',
          'rdfs:label': 'violations',
          domain: '#ConstraintViolation',
          range: 'rdf:JSON',
        },
        'hydra:title': 'violations',
        'hydra:description': 'A list of {propertyPath, message, code} objects',
        'hydra:required': true,
        'hydra:readable': true,
        'hydra:writeable': false,
      },
    ],
    subClassOf: 'hydra:Error',
  }
}

/** The Hydra ApiDocumentation JSON-LD document; `baseUrl` is scheme and host, without a trailing slash. */
export function hydraDocumentation(
  registry: ResourceRegistry,
  baseUrl: string,
  { title = 'API', extensions = [] }: { title?: string; extensions?: readonly HydraExtension[] } = {},
): Record<string, unknown> {
  const base = baseUrl.replace(/\/+$/, '')
  const docsUrl = `${base}${registry.apiPrefix}/docs.jsonld`
  const entrypointIri = `${base}${registry.apiPrefix || '/'}`
  return {
    '@context': context(docsUrl),
    '@id': docsUrl,
    '@type': 'hydra:ApiDocumentation',
    'hydra:title': title,
    'hydra:description': 'JSON-LD API with the Hydra vocabulary. The OpenAPI description is at docs.json.',
    'hydra:entrypoint': { '@id': entrypointIri },
    'hydra:supportedClass': [
      ...registry.all().map((resource) => resourceClass(resource, registry, extensions)),
      entrypointClass(registry, entrypointIri),
      constraintViolationClass(),
    ],
  }
}
