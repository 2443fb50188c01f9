import type { Field } from 'payload'
import type { HydraContext } from './context.js'
import type { JsonLdObject } from './extension.js'
import { dataFields, type Resource, type ResourceRegistry } from '../core/registry.js'

/** Payload-managed fields that never reach the JSON-LD output. */
const INTERNAL_FIELDS = new Set(['id', 'createdAt', 'updatedAt', 'password', 'hash', 'salt', 'sessions', 'deletedAt'])

/** Fields of a resource that are serialized, with their JSON names. */
export function outputFields(resource: Resource): Array<{ field: Field & { name: string }; json: string }> {
  const { meta } = resource
  const reverseAlias = new Map(Object.entries(meta.aliases ?? {}).map(([json, payloadName]) => [payloadName, json]))
  const hidden = new Set(meta.hidden ?? [])
  const writeOnly = new Set(meta.writeOnly ?? [])
  return dataFields(resource.collection.fields)
    .filter(
      (field) => !INTERNAL_FIELDS.has(field.name) && !('hidden' in field && field.hidden) && !hidden.has(field.name),
    )
    .filter((field) => field.type !== 'ui')
    .map((field) => ({ field, json: reverseAlias.get(field.name) ?? field.name }))
    .filter(({ json }) => !writeOnly.has(json))
}

function iriOf(registry: ResourceRegistry, slug: string, id: unknown): string | unknown {
  const resource = registry.bySlug(slug)
  return resource && id != null ? `${resource.collectionIri}/${String(id)}` : id
}

function relationIri(registry: ResourceRegistry, field: { relationTo: string | string[] }, value: unknown): unknown {
  if (value == null) return null
  if (typeof value === 'object' && 'relationTo' in (value as object)) {
    const { relationTo, value: inner } = value as { relationTo: string; value: unknown }
    const id = inner && typeof inner === 'object' ? (inner as { id?: unknown }).id : inner
    return iriOf(registry, relationTo, id)
  }
  const id = typeof value === 'object' ? (value as { id?: unknown }).id : value
  return typeof field.relationTo === 'string' ? iriOf(registry, field.relationTo, id) : id
}

/** Converts one stored field value into its JSON-LD form (relations become IRIs). */
export function normalizeValue(field: Field & { name: string }, value: unknown, registry: ResourceRegistry): unknown {
  // A field holding IRIs as text (custom.cwa.iri): stored canonical, served like every @id.
  if ((field.custom as { cwa?: { iri?: boolean } } | undefined)?.cwa?.iri) {
    if (value == null) return null
    return Array.isArray(value) ? value.map((entry) => registry.outputIri(entry)) : registry.outputIri(value)
  }
  switch (field.type) {
    case 'relationship':
    case 'upload': {
      if (field.hasMany) return Array.isArray(value) ? value.map((v) => relationIri(registry, field, v)) : []
      return relationIri(registry, field, value)
    }
    case 'join': {
      const docs = (value as { docs?: unknown[] } | undefined)?.docs ?? []
      const iris = docs.map((d) => relationIri(registry, { relationTo: field.collection }, d))
      const single = (field.custom as { cwa?: { single?: boolean } } | undefined)?.cwa?.single
      return single ? (iris[0] ?? null) : iris
    }
    case 'date':
      return value ? new Date(value as string).toISOString() : null
    case 'text':
    case 'select':
    case 'number':
      if ('hasMany' in field && field.hasMany) return Array.isArray(value) ? value : []
      return value ?? null
    default:
      return value ?? null
  }
}

/**
 * The JSON-LD form of one stored document: @id (its IRI), @type (the short
 * name), id, every mapped field and timestamps. `_metadata` and other
 * computed entries are added by extensions.
 */
export function normalizeDocument(resource: Resource, doc: Record<string, unknown>, ctx: HydraContext): JsonLdObject {
  const { meta } = resource
  const out: JsonLdObject = {
    '@id': ctx.registry.itemIri(resource, String(doc.id)),
    '@type': meta.shortName,
    id: doc.id,
  }
  for (const { field, json } of outputFields(resource)) {
    // A field the caller may not read (field-level access) is left out, not shown as null.
    if ('access' in field && field.access?.read && !(field.name in doc)) continue
    out[json] = normalizeValue(field, doc[field.name], ctx.registry)
  }
  if (meta.timestamped || meta.showCreatedAt || meta.kind === 'pageData') {
    out.createdAt = doc.createdAt ? new Date(doc.createdAt as string).toISOString() : null
  }
  if (meta.timestamped) {
    out.modifiedAt = doc.updatedAt ? new Date(doc.updatedAt as string).toISOString() : null
  }
  return out
}
