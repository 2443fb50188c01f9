import type { Field } from 'payload'
import type { HydraContext } from './context'
import { badRequest, type Violation, violation, ViolationError } from './errors'
import { dataFields, type Resource } from './registry'

type FieldWithName = Field & { name: string }

/** Payload-managed or computed fields a client never writes. */
const NOT_WRITABLE = new Set(['id', 'createdAt', 'updatedAt', 'hash', 'salt', 'sessions', 'deletedAt'])

/** Relations collected while reading a body, checked for existence in one query per target. */
interface PendingRelation {
  slug: string
  id: string
  propertyPath: string
  iri: string
}

interface State {
  violations: Violation[]
  relations: PendingRelation[]
}

function writableFields(resource: Resource): Map<string, FieldWithName> {
  const { meta } = resource
  const readOnly = new Set(meta.readOnly ?? [])
  const hidden = new Set(meta.hidden ?? [])
  const byJson = new Map<string, FieldWithName>()
  const aliasOf = new Map(Object.entries(meta.aliases ?? {}).map(([json, name]) => [name, json]))
  for (const field of dataFields(resource.collection.fields)) {
    if (NOT_WRITABLE.has(field.name) || readOnly.has(field.name) || hidden.has(field.name)) continue
    if (field.type === 'join' || field.type === 'ui' || ('virtual' in field && field.virtual)) continue
    if ('hidden' in field && field.hidden && field.name !== 'password') continue
    if ('admin' in field && field.admin && (field.admin as { readOnly?: boolean }).readOnly) continue
    byJson.set(aliasOf.get(field.name) ?? field.name, field)
  }
  // Payload's auth collections accept `password` on write though it is no stored field.
  if (resource.collection.auth && meta.aliases) {
    for (const [json, name] of Object.entries(meta.aliases)) {
      if (name === 'password') byJson.set(json, { name: 'password', type: 'text' } as FieldWithName)
    }
  }
  return byJson
}

const typeMessage = (type: string) => `This value should be of type ${type}.`

function readScalar(field: FieldWithName, value: unknown, path: string, state: State): unknown {
  if (value === null) return null
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'code':
    case 'radio':
    case 'select':
      if (typeof value !== 'string') state.violations.push(violation(path, typeMessage('string'), 'type'))
      return value
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) state.violations.push(violation(path, typeMessage('number'), 'type'))
      return value
    case 'checkbox':
      if (typeof value !== 'boolean') state.violations.push(violation(path, typeMessage('bool'), 'type'))
      return value
    case 'date':
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
        state.violations.push(violation(path, 'This value is not a valid datetime.', 'datetime'))
        return value
      }
      return new Date(value).toISOString()
    default:
      return value
  }
}

function readRelation(
  field: FieldWithName & { relationTo: string | string[] },
  value: unknown,
  path: string,
  ctx: HydraContext,
  state: State,
): unknown {
  if (value === null) return null
  if (typeof value !== 'string') {
    state.violations.push(violation(path, 'Expected an IRI (string).', 'type'))
    return null
  }
  const parsed = ctx.registry.parseIri(value)
  const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]
  if (!parsed?.id) {
    state.violations.push(violation(path, `Invalid IRI "${value}".`, 'invalid_iri'))
    return null
  }
  if (!targets.includes(parsed.resource.slug)) {
    state.violations.push(violation(path, `The IRI "${value}" does not point to an accepted type.`, 'invalid_iri_type'))
    return null
  }
  state.relations.push({ slug: parsed.resource.slug, id: parsed.id, propertyPath: path, iri: value })
  return Array.isArray(field.relationTo) ? { relationTo: parsed.resource.slug, value: parsed.id } : parsed.id
}

function readField(field: FieldWithName, value: unknown, path: string, ctx: HydraContext, state: State): unknown {
  const many = 'hasMany' in field && field.hasMany
  if (many) {
    if (value === null) return []
    if (!Array.isArray(value)) {
      state.violations.push(violation(path, typeMessage('array'), 'type'))
      return value
    }
    return value.map((v, i) =>
      field.type === 'relationship' || field.type === 'upload'
        ? readRelation(field as never, v, `${path}[${i}]`, ctx, state)
        : readScalar(field, v, `${path}[${i}]`, state),
    )
  }
  if (field.type === 'relationship' || field.type === 'upload') return readRelation(field as never, value, path, ctx, state)
  return readScalar(field, value, path, state)
}

/**
 * Turns a JSON-LD body into Payload data: unknown properties are ignored,
 * relations are read as IRIs (wrong type or nothing behind them: a violation
 * on that property), values of the wrong type are violations. Throws a
 * ViolationError (422) listing every problem at once.
 */
export async function denormalize(resource: Resource, body: unknown, ctx: HydraContext): Promise<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON object.')
  }
  const fields = writableFields(resource)
  const state: State = { violations: [], relations: [] }
  const data: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const field = fields.get(key)
    if (!field || key.startsWith('@')) continue
    data[field.name] = readField(field, value, key, ctx, state)
  }
  if (state.violations.length === 0) await checkRelationsExist(state, ctx)
  if (state.violations.length > 0) throw new ViolationError(state.violations)
  return data
}

async function checkRelationsExist(state: State, ctx: HydraContext): Promise<void> {
  const bySlug = new Map<string, PendingRelation[]>()
  for (const relation of state.relations) bySlug.set(relation.slug, [...(bySlug.get(relation.slug) ?? []), relation])
  for (const [slug, relations] of bySlug) {
    const ids = [...new Set(relations.map((r) => r.id))]
    const found = await ctx.payload.find({
      collection: slug as never,
      where: { id: { in: ids } },
      depth: 0,
      limit: ids.length,
      pagination: false,
      select: {},
      req: ctx.req,
    })
    const existing = new Set(found.docs.map((d) => String((d as { id: unknown }).id)))
    for (const relation of relations) {
      if (!existing.has(relation.id)) {
        state.violations.push(violation(relation.propertyPath, `Item not found for "${relation.iri}".`, 'not_found'))
      }
    }
  }
}
