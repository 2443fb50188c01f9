import { lowerFirst } from '../../../core/utils/naming.js'
import type { Resource, ResourceRegistry } from '../../../core/registry.js'
import { contextSchema, ref, type Schema, violationSchema } from './kit.js'
import { nullable, type PropertyDescription, textOf } from './properties.js'

/** The schemas of the document: a resource's read and write shapes, and the Hydra shapes every resource shares. */

export function readSchema(resource: Resource, properties: PropertyDescription[]): Schema {
  const props: Record<string, Schema> = {
    '@context': contextSchema,
    '@id': { type: 'string', format: 'iri-reference', readOnly: true },
    '@type': { type: 'string', const: resource.meta.shortName, readOnly: true },
  }
  const required = ['@id', '@type']
  for (const p of properties) {
    if (!p.readable) continue
    let schema = p.alwaysSet ? { ...p.schema } : nullable(p.schema)
    if (!p.writable) schema = { ...schema, readOnly: true }
    props[p.json] = schema
    // normalizeDocument sets every serialized field (null when empty), timestamps included; extensions add _metadata.
    // A field with field-level read access is left out for callers who may not read it: not required.
    if (p.alwaysPresent !== false) required.push(p.json)
  }
  const description = textOf((resource.collection.admin as { description?: unknown } | undefined)?.description)
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties: props,
    required,
  }
}

export function writeSchema(properties: PropertyDescription[], { patch }: { patch: boolean }): Schema {
  const props: Record<string, Schema> = {}
  const required: string[] = []
  for (const p of properties) {
    if (!p.writable) continue
    const base = p.writeSchema ?? p.schema
    const fieldRequired = p.field && 'required' in p.field && p.field.required === true
    let schema = fieldRequired || p.requiredOnCreate ? { ...base } : nullable(base)
    if (!p.readable) schema = { ...schema, writeOnly: true }
    props[p.json] = schema
    if (!patch && p.requiredOnCreate) required.push(p.json)
  }
  return { type: 'object', properties: props, ...(required.length > 0 ? { required } : {}) }
}

export function sharedSchemas(registry: ResourceRegistry): Record<string, Schema> {
  const entrypointProps: Record<string, Schema> = {
    '@context': contextSchema,
    '@id': { type: 'string', format: 'iri-reference' },
    '@type': { type: 'string', const: 'Entrypoint' },
  }
  for (const resource of registry.all()) {
    entrypointProps[lowerFirst(resource.meta.shortName)] = {
      type: 'string',
      format: 'iri-reference',
      description: `IRI of the ${resource.meta.shortName} collection`,
      examples: [resource.collectionIri],
    }
  }
  return {
    'Hydra.Entrypoint': {
      type: 'object',
      description: 'The IRI of every resource collection',
      properties: entrypointProps,
      required: Object.keys(entrypointProps).filter((k) => k !== '@context'),
    },
    'Hydra.PartialCollectionView': {
      type: 'object',
      properties: {
        '@id': { type: 'string', format: 'iri-reference' },
        '@type': { type: 'string', const: 'PartialCollectionView' },
        first: { type: 'string', format: 'iri-reference' },
        last: { type: 'string', format: 'iri-reference' },
        previous: { type: 'string', format: 'iri-reference' },
        next: { type: 'string', format: 'iri-reference' },
      },
      required: ['@id', '@type'],
    },
    'Hydra.Collection': {
      type: 'object',
      description: 'A page of a Hydra collection',
      properties: {
        '@context': contextSchema,
        '@id': { type: 'string', format: 'iri-reference' },
        '@type': { type: 'string', const: 'Collection' },
        totalItems: { type: 'integer', minimum: 0 },
        member: { type: 'array', items: { type: 'object' } },
        view: ref('Hydra.PartialCollectionView'),
      },
      required: ['@id', '@type', 'totalItems', 'member', 'view'],
    },
    'Hydra.Error': {
      type: 'object',
      description: 'A Hydra error',
      properties: {
        '@context': contextSchema,
        '@id': { type: 'string', format: 'iri-reference' },
        '@type': { type: 'string', const: 'Error' },
        title: { type: 'string' },
        detail: { type: 'string' },
        description: { type: 'string' },
        message: { type: 'string', description: 'A human sentence a client may show as is' },
        status: { type: 'integer' },
        type: { type: 'string' },
      },
      required: ['@type', 'title', 'detail', 'status'],
    },
    'Hydra.ConstraintViolation': {
      type: 'object',
      description: 'Validation failure: one violation per invalid property',
      properties: {
        '@context': contextSchema,
        '@id': { type: 'string', format: 'iri-reference' },
        '@type': { type: 'string', const: 'ConstraintViolation' },
        title: { type: 'string' },
        detail: { type: 'string' },
        description: { type: 'string' },
        message: { type: 'string', description: 'A human sentence a client may show as is' },
        status: { type: 'integer', const: 422 },
        violations: { type: 'array', items: violationSchema },
      },
      required: ['@type', 'title', 'detail', 'status', 'violations'],
    },
  }
}
