import type { Field } from 'payload'
import type { HydraExtension } from '../../extension.js'
import { describeProperties } from '../../extensions/formatHooks.js'
import { outputFields } from '../../item.js'
import { dataFields, type Resource, type ResourceRegistry } from '../../../core/registry.js'
import { passwordAliases, writableFields } from '../../writableFields.js'
import type { Schema } from './kit.js'
import type { PropertyDescription } from './propertyDescription.js'

export type { PropertyDescription }

/** The properties of a resource as the API exposes them: derived from its fields, amended by extensions. */

type FieldWithName = Field & { name: string }

/** Payload-managed or computed fields a client never writes (as the denormalizer). */

const isRelation = (field: FieldWithName) =>
  field.type === 'relationship' || field.type === 'upload' || field.type === 'join'

function targetSlugs(field: FieldWithName): string[] {
  if (field.type === 'join') return [field.collection].flat()
  if (field.type === 'relationship' || field.type === 'upload') return [field.relationTo].flat()
  return []
}

function hasMany(field: FieldWithName): boolean {
  if (field.type === 'join') return !(field.custom as { cwa?: { single?: boolean } } | undefined)?.cwa?.single
  return 'hasMany' in field && field.hasMany === true
}

export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined
}

/** The field's admin description when it is plain text (labels are Payload's title-cased names: no information). */
function fieldDescription(field: FieldWithName): string | undefined {
  const admin = 'admin' in field ? (field.admin as { description?: unknown } | undefined) : undefined
  return textOf(admin?.description)
}

function optionValues(options: unknown): string[] {
  if (!Array.isArray(options)) return []
  return options.map((o) => (typeof o === 'string' ? o : String((o as { value: unknown }).value)))
}

/** Schema of one value of a field (for a hasMany field: of one element). */
function valueSchema(field: FieldWithName, registry: ResourceRegistry): { schema: Schema; range?: string } {
  const f = field as FieldWithName & Record<string, unknown>
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'code': {
      const schema: Schema = { type: 'string' }
      if (typeof f.minLength === 'number') schema.minLength = f.minLength
      if (typeof f.maxLength === 'number') schema.maxLength = f.maxLength
      return { schema, range: 'xmls:string' }
    }
    case 'email':
      return { schema: { type: 'string', format: 'email' }, range: 'xmls:string' }
    case 'select':
    case 'radio': {
      const values = optionValues(f.options)
      return { schema: values.length > 0 ? { type: 'string', enum: values } : { type: 'string' }, range: 'xmls:string' }
    }
    case 'number': {
      const schema: Schema = { type: 'number' }
      if (typeof f.min === 'number') schema.minimum = f.min
      if (typeof f.max === 'number') schema.maximum = f.max
      return { schema, range: 'xmls:decimal' }
    }
    case 'checkbox':
      return { schema: { type: 'boolean' }, range: 'xmls:boolean' }
    case 'date':
      return { schema: { type: 'string', format: 'date-time' }, range: 'xmls:dateTime' }
    case 'point':
      return {
        schema: {
          type: 'array',
          items: { type: 'number' },
          minItems: 2,
          maxItems: 2,
          description: '[longitude, latitude]',
        },
      }
    case 'relationship':
    case 'upload':
    case 'join': {
      const targets = targetSlugs(field)
        .map((slug) => registry.bySlug(slug))
        .filter((r): r is Resource => r !== undefined)
      const names = targets.map((t) => t.meta.shortName)
      const schema: Schema = {
        type: 'string',
        format: 'iri-reference',
        description: names.length > 0 ? `IRI of a ${names.join(' or ')} resource` : 'IRI of a resource',
      }
      if (targets.length > 0) schema.examples = [`${targets[0]!.collectionIri}/00000000-0000-4000-8000-000000000000`]
      return { schema, range: targets.length === 1 ? `#${targets[0]!.meta.shortName}` : 'hydra:Resource' }
    }
    case 'json': {
      // A JSON field of a known shape (a list of IRIs...) says so in custom.cwa.schema.
      const declared = (f.custom as { cwa?: { schema?: Schema } } | undefined)?.cwa?.schema
      return { schema: declared ?? { description: 'Any JSON value' }, range: 'rdf:JSON' }
    }
    case 'richText':
      return { schema: { type: 'object', description: 'Rich text document (editor state)' } }
    case 'group':
      return {
        schema: {
          type: 'object',
          properties: Object.fromEntries(dataFields(f.fields as Field[]).map((sub) => [sub.name, {}])),
        },
      }
    case 'array':
      return { schema: { type: 'array', items: { type: 'object' } } }
    case 'blocks': {
      const blocks = ((f.blocks as Array<{ slug: string }> | undefined) ?? []).map((b) => b.slug)
      const blockType: Schema = blocks.length > 0 ? { type: 'string', enum: blocks } : { type: 'string' }
      return {
        schema: { type: 'array', items: { type: 'object', required: ['blockType'], properties: { blockType } } },
      }
    }
    default:
      return { schema: {} }
  }
}

/** The full schema of a field's value: a list for hasMany fields and list joins. */
function fieldSchema(
  field: FieldWithName,
  registry: ResourceRegistry,
): { schema: Schema; range?: string; many: boolean } {
  const { schema, range } = valueSchema(field, registry)
  const description = fieldDescription(field)
  if (!hasMany(field)) {
    // One sentence after the other: the field's own may end with its period already.
    const text = [description?.replace(/\.$/, ''), schema.description].filter(Boolean).join('. ')
    return { schema: text ? { ...schema, description: text } : schema, range, many: false }
  }
  const f = field as FieldWithName & Record<string, unknown>
  const list: Schema = { type: 'array', items: schema }
  if (typeof f.minRows === 'number') list.minItems = f.minRows
  if (typeof f.maxRows === 'number') list.maxItems = f.maxRows
  if (description) list.description = description
  return { schema: list, range, many: true }
}

function hasDefault(field: FieldWithName): boolean {
  return 'defaultValue' in field && field.defaultValue !== undefined
}

const isoDate: Schema = { type: 'string', format: 'date-time' }

/**
 * Every property of a resource, readable, writable or both, in output order
 * (id first, write-only properties last), as amended by the extensions'
 * describeProperties hooks. Shared with the Hydra documentation.
 */
export function resourceProperties(
  resource: Resource,
  registry: ResourceRegistry,
  extensions: readonly HydraExtension[] = [],
): PropertyDescription[] {
  const { meta } = resource
  const writable = writableFields(resource)
  const out: PropertyDescription[] = [
    {
      json: 'id',
      readable: true,
      writable: false,
      requiredOnCreate: false,
      alwaysSet: true,
      schema: { type: 'string', format: 'uuid' },
      many: false,
      range: 'xmls:string',
    },
  ]
  const seen = new Set<string>(['id'])
  for (const { field, json } of outputFields(resource)) {
    const { schema, range, many } = fieldSchema(field, registry)
    const canWrite = writable.get(json) === field
    out.push({
      json,
      field,
      readable: true,
      writable: canWrite,
      requiredOnCreate: canWrite && 'required' in field && field.required === true && !hasDefault(field),
      alwaysSet: many || ('required' in field && field.required === true),
      // normalizeDocument leaves out a field the caller may not read (field-level read access).
      alwaysPresent: !('access' in field && field.access?.read),
      schema,
      targets: isRelation(field) ? targetsOf(field, registry) : undefined,
      many,
      range,
      description: fieldDescription(field),
    })
    seen.add(json)
  }
  for (const [json, field] of writable) {
    if (seen.has(json)) continue
    const { schema, range, many } = fieldSchema(field, registry)
    out.push({
      json,
      field,
      readable: false,
      writable: true,
      requiredOnCreate: 'required' in field && field.required === true && !hasDefault(field),
      alwaysSet: many,
      schema,
      targets: isRelation(field) ? targetsOf(field, registry) : undefined,
      many,
      range,
      description: fieldDescription(field),
    })
    seen.add(json)
  }
  const localStrategy = !(resource.collection.auth as { disableLocalStrategy?: unknown } | undefined)
    ?.disableLocalStrategy
  for (const json of passwordAliases(resource)) {
    if (seen.has(json)) continue
    out.push({
      json,
      readable: false,
      writable: true,
      requiredOnCreate: localStrategy,
      alwaysSet: false,
      schema: { type: 'string', format: 'password' },
      many: false,
      range: 'xmls:string',
      description: 'The password, in clear (stored hashed, never returned)',
    })
    seen.add(json)
  }
  if (meta.timestamped || meta.showCreatedAt || meta.kind === 'pageData') {
    out.push(computed('createdAt', isoDate, 'xmls:dateTime', 'Creation date'))
  }
  if (meta.timestamped) out.push(computed('modifiedAt', isoDate, 'xmls:dateTime', 'Date of the last change'))
  out.push(
    computed(
      '_metadata',
      {
        type: 'object',
        properties: { persisted: { type: 'boolean', const: true } },
        required: ['persisted'],
        additionalProperties: true,
      },
      'rdf:JSON',
      'Computed information about the resource (persisted: true for a stored record; publishing state, media objects...)',
    ),
  )
  describeProperties(extensions, resource, out, registry)
  return out
}

/** A property computed on output (timestamps from Payload's own, `_metadata` from the built-in extension): always set. */
export function computed(json: string, schema: Schema, range: string, description: string): PropertyDescription {
  return {
    json,
    readable: true,
    writable: false,
    requiredOnCreate: false,
    alwaysSet: true,
    alwaysPresent: true,
    schema,
    many: false,
    range,
    description,
  }
}

function targetsOf(field: FieldWithName, registry: ResourceRegistry): Resource[] {
  return targetSlugs(field)
    .map((slug) => registry.bySlug(slug))
    .filter((r): r is Resource => r !== undefined)
}

/** Adds null to the values a schema accepts (type list and enum alike). */
export function nullable(schema: Schema): Schema {
  if (schema.type === undefined) return schema // no type: null is already allowed
  const types = [schema.type].flat() as string[]
  if (types.includes('null')) return schema
  const out: Schema = { ...schema, type: [...types, 'null'] }
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null]
  return out
}
