import type { HydraContext } from './context.js'
import { badRequest, type Violation, violation, ViolationError } from './errors.js'
import type { Resource } from '../core/registry.js'

import { type FieldWithName, passwordAliases, writableFields } from './writableFields.js'
import { visibleIds } from './visibleIds.js'

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

/** Stored writable fields plus Payload's auth `password` (under its alias). */
function acceptedFields(resource: Resource): Map<string, FieldWithName> {
  const byJson = writableFields(resource)
  for (const json of passwordAliases(resource)) byJson.set(json, { name: 'password', type: 'text' } as FieldWithName)
  return byJson
}

const typeMessage = (type: string) => `This value should be of type ${type}.`

/** Longest value (in UTF-8 bytes) of an indexed or unique text column: a B-tree entry holds at most ~2.7 kB. */
export const MAX_INDEXED_BYTES = 2000
/** Deepest nesting accepted in a free-form JSON value. */
export const MAX_JSON_DEPTH = 64

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/**
 * A string PostgreSQL can store as sent: no NUL character (refused by the
 * database) and no lone UTF-16 surrogate (which would be silently replaced).
 */
function checkString(value: string, path: string, state: State): boolean {
  if (value.includes('\u0000')) {
    state.violations.push(
      violation(path, 'This value contains a NUL character, which cannot be stored.', 'invalid_characters'),
    )
    return false
  }
  if (LONE_SURROGATE.test(value)) {
    state.violations.push(violation(path, 'This value is not a valid Unicode string.', 'invalid_characters'))
    return false
  }
  return true
}

const indexed = (field: FieldWithName) =>
  ('unique' in field && field.unique === true) || ('index' in field && field.index === true)

/** Free-form JSON: any value, but not nested past MAX_JSON_DEPTH and with storable strings (keys included). */
function checkJson(value: unknown, path: string, state: State): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }]
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!
    if (typeof current === 'string') {
      if (!checkString(current, path, state)) return
    } else if (current && typeof current === 'object') {
      if (depth >= MAX_JSON_DEPTH) {
        state.violations.push(violation(path, `This value is nested deeper than ${MAX_JSON_DEPTH} levels.`, 'too_deep'))
        return
      }
      if (Array.isArray(current)) {
        for (const item of current) stack.push({ value: item, depth: depth + 1 })
      } else {
        for (const [key, item] of Object.entries(current)) {
          if (!checkString(key, path, state)) return
          stack.push({ value: item, depth: depth + 1 })
        }
      }
    }
  }
}

/** PostgreSQL timestamps go from 4713 BC to 294276 AD; the API accepts years 1 to 9999. */
function validDate(value: string): boolean {
  const time = Date.parse(value)
  if (Number.isNaN(time)) return false
  const year = new Date(time).getUTCFullYear()
  return year >= 1 && year <= 9999
}

function readScalar(
  field: FieldWithName,
  value: unknown,
  path: string,
  state: State,
  { element = false } = {},
): unknown {
  if (value === null) {
    // null clears a single-valued property; inside a list it is no value at all.
    if (element) state.violations.push(violation(path, 'This value should not be null.', 'type'))
    return null
  }
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'code':
    case 'radio':
    case 'select':
      if (typeof value !== 'string') {
        state.violations.push(violation(path, typeMessage('string'), 'type'))
      } else if (checkString(value, path, state) && indexed(field) && Buffer.byteLength(value) > MAX_INDEXED_BYTES) {
        state.violations.push(
          violation(path, `This value is too long. It should have ${MAX_INDEXED_BYTES} bytes or less.`, 'too_long'),
        )
      }
      return value
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value))
        state.violations.push(violation(path, typeMessage('number'), 'type'))
      return value
    case 'checkbox':
      if (typeof value !== 'boolean') state.violations.push(violation(path, typeMessage('bool'), 'type'))
      return value
    case 'date':
      if (typeof value !== 'string' || !validDate(value)) {
        state.violations.push(violation(path, 'This value is not a valid datetime.', 'datetime'))
        return value
      }
      return new Date(value).toISOString()
    case 'json':
      checkJson(value, path, state)
      return value
    case 'group':
      if (typeof value !== 'object' || Array.isArray(value))
        state.violations.push(violation(path, typeMessage('object'), 'type'))
      else checkJson(value, path, state)
      return value
    case 'array':
    case 'blocks':
      if (!Array.isArray(value) || value.some((row) => !row || typeof row !== 'object' || Array.isArray(row))) {
        state.violations.push(violation(path, typeMessage('array of objects'), 'type'))
      } else {
        checkJson(value, path, state)
      }
      return value
    default:
      checkJson(value, path, state)
      return value
  }
}

function readRelation(
  field: FieldWithName & { relationTo: string | string[] },
  value: unknown,
  path: string,
  ctx: HydraContext,
  state: State,
  { element = false } = {},
): unknown {
  if (value === null) {
    if (element) state.violations.push(violation(path, 'Expected an IRI (string), got null.', 'type'))
    return null
  }
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
        ? readRelation(field, v, `${path}[${i}]`, ctx, state, { element: true })
        : readScalar(field, v, `${path}[${i}]`, state, { element: true }),
    )
  }
  if (field.type === 'relationship' || field.type === 'upload') return readRelation(field, value, path, ctx, state)
  return readScalar(field, value, path, state)
}

/**
 * Turns a JSON-LD body into Payload data: unknown properties are ignored,
 * relations are read as IRIs (wrong type or nothing behind them: a violation
 * on that property), values of the wrong type are violations. Throws a
 * ViolationError (422) listing every problem at once.
 */
export async function denormalize(
  resource: Resource,
  body: unknown,
  ctx: HydraContext,
): Promise<Record<string, unknown>> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('The request body must be a JSON object.')
  }
  const fields = acceptedFields(resource)
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
    // An IRI the caller may not read names nothing, as far as the caller can tell.
    const existing = await visibleIds(
      slug,
      relations.map((r) => r.id),
      ctx,
    )
    for (const relation of relations) {
      if (!existing.has(relation.id)) {
        state.violations.push(violation(relation.propertyPath, `Item not found for "${relation.iri}".`, 'not_found'))
      }
    }
  }
}
