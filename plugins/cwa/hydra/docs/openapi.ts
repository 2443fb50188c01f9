import type { Field } from 'payload'
import { publishableOf } from '../../features/publishable/config'
import { lowerFirst } from '../../core/utils/naming'
import { DEFAULT_ITEMS_PER_PAGE, DEFAULT_MAX_ITEMS_PER_PAGE } from '../filters'
import { outputFields } from '../item'
import { dataFields, type Resource, type ResourceRegistry } from '../registry'
import type { HydraExtension } from '../extension'
import { passwordAliases, writableFields } from '../writableFields'

/**
 * OpenAPI 3.1 description of the JSON-LD API, derived from the resource
 * registry: every resource gets its five operations, a read schema (the
 * JSON-LD item as serialized), a write schema (POST body) and a merge-patch
 * schema (PATCH body). Nothing names a resource: the registry is the source.
 */

export type Schema = Record<string, unknown>
type FieldWithName = Field & { name: string }

export interface OpenApiInfo {
  title: string
  version: string
  /** Absolute base URL of the server (scheme and host); paths carry the API prefix. */
  serverUrl?: string
  description?: string
  /** Name of the JWT cookie (options.session.cookieName): adds a cookie security scheme. */
  cookieName?: string
}

/** One property of a resource as the API exposes it. */
export interface PropertyDescription {
  /** JSON property name. */
  json: string
  /** The Payload field behind it; absent for computed properties (id, timestamps, _metadata) and auth's password. */
  field?: FieldWithName
  /** Serialized on read. */
  readable: boolean
  /** Accepted on POST and PATCH. */
  writable: boolean
  /** Needed on POST: required by Payload and without a default value. */
  requiredOnCreate: boolean
  /** Never null in the output (required field, or a list). */
  alwaysSet: boolean
  /** Present in every read. False for a field with field-level read access (left out for a caller who may not read it). */
  alwaysPresent?: boolean
  /** JSON Schema of a value as read (without null). */
  schema: Schema
  /** JSON Schema of a value as written, when it differs from the read one. */
  writeSchema?: Schema
  /** Resources an IRI-valued property points to (relationship, upload, join). */
  targets?: Resource[]
  /** Whether the value is a list. */
  many: boolean
  /** XSD or JSON-LD range for the Hydra documentation. */
  range?: string
  description?: string
}

const MEDIA_JSONLD = 'application/ld+json'
const MEDIA_JSON = 'application/json'
const MEDIA_MERGE_PATCH = 'application/merge-patch+json'

/** Payload-managed or computed fields a client never writes (as the denormalizer). */

const isRelation = (field: FieldWithName) => field.type === 'relationship' || field.type === 'upload' || field.type === 'join'

function targetSlugs(field: FieldWithName): string[] {
  if (field.type === 'join') return [field.collection].flat()
  if (field.type === 'relationship' || field.type === 'upload') return [field.relationTo].flat()
  return []
}

function hasMany(field: FieldWithName): boolean {
  if (field.type === 'join') return !(field.custom as { cwa?: { single?: boolean } } | undefined)?.cwa?.single
  return 'hasMany' in field && field.hasMany === true
}

function textOf(value: unknown): string | undefined {
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
      return { schema: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, description: '[longitude, latitude]' } }
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
    case 'json':
      return { schema: { description: 'Any JSON value' }, range: 'rdf:JSON' }
    case 'richText':
      return { schema: { type: 'object', description: 'Rich text document (editor state)' } }
    case 'group':
      return { schema: { type: 'object', properties: Object.fromEntries(dataFields(f.fields as Field[]).map((sub) => [sub.name, {}])) } }
    case 'array':
      return { schema: { type: 'array', items: { type: 'object' } } }
    case 'blocks': {
      const blocks = ((f.blocks as Array<{ slug: string }> | undefined) ?? []).map((b) => b.slug)
      const blockType: Schema = blocks.length > 0 ? { type: 'string', enum: blocks } : { type: 'string' }
      return { schema: { type: 'array', items: { type: 'object', required: ['blockType'], properties: { blockType } } } }
    }
    default:
      return { schema: {} }
  }
}

/** The full schema of a field's value: a list for hasMany fields and list joins. */
function fieldSchema(field: FieldWithName, registry: ResourceRegistry): { schema: Schema; range?: string; many: boolean } {
  const { schema, range } = valueSchema(field, registry)
  const description = fieldDescription(field)
  if (!hasMany(field)) {
    const text = [description, schema.description].filter(Boolean).join('. ')
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
 * (id first, write-only properties last). Shared with the Hydra documentation.
 */
export function resourceProperties(resource: Resource, registry: ResourceRegistry): PropertyDescription[] {
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
  const publishable = publishableOf(resource)
  const twinDescriptions: Record<string, string> = publishable
    ? {
        [publishable.publishedAt]:
          'Publication date. null: an unpublished draft; a future date schedules the draft; now or past publishes it (permitted callers; others publish at once)',
        [publishable.publishedResource]:
          'Set on a draft: the published version it will replace. Maintained by the service, never by a client. null for callers without the publish permission',
        [publishable.draftResource]:
          'Set on a published record: its pending draft. Maintained by the service. null for callers without the publish permission',
      }
    : {}
  for (const { field, json } of outputFields(resource)) {
    const { schema: fieldValueSchema, range, many } = fieldSchema(field, registry)
    const twinText = twinDescriptions[field.name]
    const schema = twinText ? { ...fieldValueSchema, description: twinText } : fieldValueSchema
    const canWrite = writable.get(json) === field
    // Roles are expanded through the role hierarchy on output: values beyond the stored options appear.
    const readSchema = meta.kind === 'user' && json === 'roles' ? { type: 'array', items: { type: 'string' } } : schema
    out.push({
      json,
      field,
      readable: true,
      writable: canWrite,
      requiredOnCreate: canWrite && 'required' in field && field.required === true && !hasDefault(field),
      alwaysSet: many || ('required' in field && field.required === true),
      // normalizeDocument leaves out a field the caller may not read (field-level read access).
      alwaysPresent: !('access' in field && field.access?.read),
      schema: readSchema,
      ...(canWrite && readSchema !== schema ? { writeSchema: schema } : {}),
      targets: isRelation(field) ? targetsOf(field, registry) : undefined,
      many,
      range,
      description: twinText ?? fieldDescription(field),
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
  const localStrategy = !(resource.collection.auth as { disableLocalStrategy?: unknown } | undefined)?.disableLocalStrategy
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
  if (publishable) {
    out.push(computed('_metadata', publishableMetadataSchema(meta.kind === 'component'), 'rdf:JSON', 'Computed information (publishing state, publish violations, media objects...)'))
  } else if (meta.kind === 'component') {
    out.push(computed('_metadata', { type: 'object', additionalProperties: true }, 'rdf:JSON', 'Computed information about the component (media objects...)'))
  }
  return out
}

/** One violation of a 422 body or of `_metadata.violations`. */
const violationSchema: Schema = {
  type: 'object',
  properties: {
    propertyPath: { type: 'string', description: 'JSON property name (with [index] for list elements)' },
    message: { type: 'string' },
    code: { type: ['string', 'null'] },
  },
  required: ['propertyPath', 'message', 'code'],
}

/**
 * `_metadata` of a publishable type: `publishable` for every caller,
 * `violations` (the publish validation group run on the record) only for
 * callers with the publish permission. Other behaviours add entries of
 * their own (mediaObjects...).
 */
function publishableMetadataSchema(component: boolean): Schema {
  return {
    type: 'object',
    additionalProperties: true,
    properties: {
      publishable: {
        type: 'object',
        description: 'Publishing state, returned to every caller',
        properties: {
          published: {
            type: 'boolean',
            description: 'true when publishedAt is set and not in the future; a draft reports false even when it has a published twin',
          },
          publishedAt: { type: ['string', 'null'], format: 'date-time', description: "This resource's own publication date" },
          locationCount: component
            ? {
                type: ['integer', 'null'],
                minimum: 0,
                description: 'Places the component appears: component positions plus page data records holding it in a property',
              }
            : { type: 'null', description: 'Always null: this type has no component positions' },
        },
        required: ['published', 'publishedAt', 'locationCount'],
      },
      violations: {
        type: 'array',
        description: 'Soft validation of the publish validation group (<ShortName>:published): what would block publishing. Only for callers with the publish permission',
        items: violationSchema,
      },
    },
    required: ['publishable'],
  }
}

/** A property computed on output (timestamps from Payload's own, `_metadata` from the built-in extension): always set. */
function computed(json: string, schema: Schema, range: string, description: string): PropertyDescription {
  return { json, readable: true, writable: false, requiredOnCreate: false, alwaysSet: true, alwaysPresent: true, schema, many: false, range, description }
}

function targetsOf(field: FieldWithName, registry: ResourceRegistry): Resource[] {
  return targetSlugs(field)
    .map((slug) => registry.bySlug(slug))
    .filter((r): r is Resource => r !== undefined)
}

/** Adds null to the values a schema accepts (type list and enum alike). */
function nullable(schema: Schema): Schema {
  if (schema.type === undefined) return schema // no type: null is already allowed
  const types = [schema.type].flat() as string[]
  if (types.includes('null')) return schema
  const out: Schema = { ...schema, type: [...types, 'null'] }
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null]
  return out
}

// ---------------------------------------------------------------- schemas

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` })

export const schemaNames = {
  read: (r: Resource) => `${r.meta.shortName}.jsonld`,
  collection: (r: Resource) => `${r.meta.shortName}.jsonld.collection`,
  write: (r: Resource) => `${r.meta.shortName}.jsonld.write`,
  patch: (r: Resource) => `${r.meta.shortName}.merge-patch`,
}

const contextSchema: Schema = {
  description: 'The JSON-LD context (an IRI, or an inline context)',
  oneOf: [{ type: 'string', format: 'iri-reference' }, { type: 'object' }],
}

function readSchema(resource: Resource, properties: PropertyDescription[]): Schema {
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

function writeSchema(properties: PropertyDescription[], { patch }: { patch: boolean }): Schema {
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

function sharedSchemas(registry: ResourceRegistry): Record<string, Schema> {
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
        status: { type: 'integer', const: 422 },
        violations: { type: 'array', items: violationSchema },
      },
      required: ['@type', 'title', 'detail', 'status', 'violations'],
    },
    'Session.Credentials': {
      type: 'object',
      properties: {
        username: { type: 'string', minLength: 1 },
        password: { type: 'string', minLength: 1, format: 'password', writeOnly: true },
      },
      required: ['username', 'password'],
    },
  }
}

// ------------------------------------------------------------- responses

function errorResponse(description: string, schema = 'Hydra.Error'): Schema {
  return { description, content: { [MEDIA_JSONLD]: { schema: ref(schema) } } }
}

const sharedResponses: Record<string, Schema> = {
  BadRequest: errorResponse('Bad request: malformed JSON body, or an invalid query parameter'),
  Unauthorized: errorResponse('Authentication is required (or the credentials are invalid)'),
  Forbidden: errorResponse('The caller may not perform this operation'),
  NotFound: errorResponse('Resource not found'),
  UnsupportedMediaType: errorResponse('Unsupported request Content-Type'),
  UnprocessableEntity: errorResponse('Validation failed', 'Hydra.ConstraintViolation'),
}

function jsonLdResponse(description: string, schemaName: string, headers?: Schema): Schema {
  return { description, ...(headers ? { headers } : {}), content: { [MEDIA_JSONLD]: { schema: ref(schemaName) } } }
}

// ------------------------------------------------------------ operations

function security(cookieName: string | undefined, { optional }: { optional: boolean }): Array<Record<string, string[]>> {
  const schemes: Array<Record<string, string[]>> = [{ bearerAuth: [] }]
  if (cookieName) schemes.push({ cookieAuth: [] })
  return optional ? [{}, ...schemes] : schemes
}

function filterParameters(resource: Resource): Schema[] {
  const { meta } = resource
  const params: Schema[] = []
  if ((meta.search?.length ?? 0) > 0) {
    params.push({
      name: 'search',
      in: 'query',
      required: false,
      description: `Case-insensitive partial match on any of: ${meta.search!.join(', ')}`,
      schema: { type: 'string' },
    })
  }
  for (const name of meta.booleanFilters ?? []) {
    params.push({
      name,
      in: 'query',
      required: false,
      description: `Filter on ${name} (true, false, 1 or 0)`,
      schema: { type: 'boolean' },
    })
    params.push({
      name: `${name}[]`,
      in: 'query',
      required: false,
      description: `Filter on ${name}, several values (true and false together do not narrow)`,
      schema: { type: 'array', items: { type: 'boolean' } },
      style: 'form',
      explode: true,
    })
  }
  return params
}

function collectionParameters(resource: Resource): Schema[] {
  const { meta } = resource
  const params: Schema[] = [parameterRef('page')]
  if (meta.clientItemsPerPage ?? true) {
    params.push({
      name: 'itemsPerPage',
      in: 'query',
      required: false,
      description: 'Number of items per page',
      schema: {
        type: 'integer',
        minimum: 1,
        maximum: meta.maxItemsPerPage ?? DEFAULT_MAX_ITEMS_PER_PAGE,
        default: meta.itemsPerPage ?? DEFAULT_ITEMS_PER_PAGE,
      },
    })
  }
  params.push(...filterParameters(resource))
  for (const property of meta.order ?? []) {
    params.push({
      name: `order[${property}]`,
      in: 'query',
      required: false,
      description: `Sort by ${property}`,
      schema: { type: 'string', enum: ['asc', 'desc'] },
    })
  }
  return params
}

/** `?published=` of a publishable resource (contract: "Read parameter" and the read routing table). */
function publishedParameter(use: 'collection' | 'item' | 'delete'): Schema {
  const description = {
    collection:
      'true: only published records; false: only drafts (unpublished, scheduled, or pending edits of published records). ' +
      'Without it, callers with the publish permission get each draft in place of its published version; other callers always get published records only, whatever the value.',
    item:
      'true: the published version (also when the IRI names its draft); false: the draft. ' +
      'Without it, callers with the publish permission get the draft when one exists, else the published version. ' +
      'Callers without the permission always get the published version, and a 404 for a draft IRI or a record never published.',
    delete:
      'true: removes only the published version; its draft is kept and takes no positions. Without it, deleting a published record hands its positions and page data references to its draft.',
  }[use]
  return { name: 'published', in: 'query', required: false, description, schema: { type: 'boolean' } }
}

function resourceOperations(resource: Resource, cookieName: string | undefined): Record<string, Schema> {
  const { shortName, kind } = resource.meta
  const publishable = publishableOf(resource) !== null
  const names = schemaNames
  const tags = [shortName]
  const readSecurity = security(cookieName, { optional: true })
  const writeSecurity = security(cookieName, { optional: false })
  const locationHeaders = {
    Location: { description: 'IRI of the created resource', schema: { type: 'string', format: 'iri-reference' } },
    'Content-Location': { description: 'IRI of the created resource', schema: { type: 'string', format: 'iri-reference' } },
  }
  const collection = {
    get: {
      operationId: `get${shortName}Collection`,
      tags,
      summary: `Retrieves the collection of ${shortName} resources.`,
      security: readSecurity,
      parameters: [...collectionParameters(resource), ...(publishable ? [publishedParameter('collection')] : [])],
      responses: {
        200: jsonLdResponse(`${shortName} collection`, names.collection(resource)),
        400: responseRef('BadRequest'),
        401: responseRef('Unauthorized'),
        403: responseRef('Forbidden'),
        422: responseRef('UnprocessableEntity'),
      },
    },
    post: {
      operationId: `post${shortName}`,
      tags,
      summary: `Creates a ${shortName} resource.`,
      ...(publishable
        ? {
            description:
              'Publishable: a caller with the publish permission creates a draft (no publishedAt), a scheduled draft (a future publishedAt) or, with publishedAt now or past, ' +
              'a published record (publish validation applies). A caller without the permission publishes at once. publishedResource and draftResource are never taken from the body.',
          }
        : {}),
      // Users: registration is open or refused (403) by the resource's own access rule.
      security: kind === 'user' ? readSecurity : writeSecurity,
      requestBody: {
        required: true,
        description: `The new ${shortName} resource`,
        content: {
          [MEDIA_JSONLD]: { schema: ref(names.write(resource)) },
          [MEDIA_JSON]: { schema: ref(names.write(resource)) },
        },
      },
      responses: {
        201: jsonLdResponse(`${shortName} resource created`, names.read(resource), locationHeaders),
        400: responseRef('BadRequest'),
        401: responseRef('Unauthorized'),
        403: responseRef('Forbidden'),
        415: responseRef('UnsupportedMediaType'),
        422: responseRef('UnprocessableEntity'),
      },
    },
  }
  const item = {
    parameters: [parameterRef('id')],
    get: {
      operationId: `get${shortName}`,
      tags,
      summary: `Retrieves a ${shortName} resource.`,
      security: readSecurity,
      parameters: [...filterParameters(resource), ...(publishable ? [publishedParameter('item')] : [])],
      responses: {
        200: jsonLdResponse(`${shortName} resource`, names.read(resource)),
        400: responseRef('BadRequest'),
        401: responseRef('Unauthorized'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
      },
    },
    patch: {
      operationId: `patch${shortName}`,
      tags,
      summary: `Updates the ${shortName} resource.`,
      description: publishable
        ? 'JSON Merge Patch: properties left out are unchanged, null clears a property. Publishable: a caller with the publish permission editing a published record edits its draft (created on the first edit); ' +
          'setting publishedAt to now or a past date on a draft publishes it (publish validation applies, 422 with violations), a future date schedules it. A caller without the permission updates the published record directly.'
        : 'JSON Merge Patch: properties left out are unchanged, null clears a property.',
      security: writeSecurity,
      requestBody: {
        required: true,
        description: `The properties of the ${shortName} resource to change`,
        content: { [MEDIA_MERGE_PATCH]: { schema: ref(names.patch(resource)) } },
      },
      responses: {
        200: jsonLdResponse(`${shortName} resource updated`, names.read(resource)),
        400: responseRef('BadRequest'),
        401: responseRef('Unauthorized'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
        415: responseRef('UnsupportedMediaType'),
        422: responseRef('UnprocessableEntity'),
      },
    },
    delete: {
      operationId: `delete${shortName}`,
      tags,
      summary: `Removes the ${shortName} resource.`,
      security: writeSecurity,
      ...(publishable ? { parameters: [publishedParameter('delete')] } : {}),
      responses: {
        204: { description: `${shortName} resource deleted` },
        401: responseRef('Unauthorized'),
        403: responseRef('Forbidden'),
        404: responseRef('NotFound'),
      },
    },
  }
  return { [resource.collectionIri]: collection, [`${resource.collectionIri}/{id}`]: item }
}

/** POST {prefix}/_/publish: many drafts published in one transaction (plugins/publishable). */
function publishOperations(registry: ResourceRegistry, cookieName: string | undefined): Record<string, Schema> {
  const publishable = registry.all().filter((r) => publishableOf(r) !== null)
  if (publishable.length === 0) return {}
  return {
    [`${registry.apiPrefix}/_/publish`]: {
      post: {
        operationId: 'publishDrafts',
        tags: ['Publishing'],
        summary: 'Publishes many drafts at once.',
        description:
          'Publishes every listed draft in one transaction, all or nothing, as a PATCH of publishedAt to now would: a draft with a published twin replaces it ' +
          '(positions and page data references follow the published IRI), a draft without one becomes the published record. ' +
          'Needs the publish permission (401 anonymous, 403 others). An IRI that names no draft of a publishable type fails the whole request, and so does a draft failing publish validation (422 with violations).',
        security: security(cookieName, { optional: false }),
        requestBody: {
          required: true,
          content: {
            [MEDIA_JSONLD]: { schema: ref('Publishing.Request') },
            [MEDIA_JSON]: { schema: ref('Publishing.Request') },
          },
        },
        responses: {
          200: jsonLdResponse('The published records, in the order of the request', 'Publishing.Result'),
          400: responseRef('BadRequest'),
          401: responseRef('Unauthorized'),
          403: responseRef('Forbidden'),
          404: responseRef('NotFound'),
          415: responseRef('UnsupportedMediaType'),
          422: responseRef('UnprocessableEntity'),
        },
      },
    },
  }
}

function publishSchemas(registry: ResourceRegistry): Record<string, Schema> {
  const publishable = registry.all().filter((r) => publishableOf(r) !== null)
  if (publishable.length === 0) return {}
  return {
    'Publishing.Request': {
      type: 'object',
      properties: {
        iris: {
          type: 'array',
          minItems: 1,
          maxItems: 200,
          description: `IRIs of drafts of publishable types (${publishable.map((r) => r.meta.shortName).join(', ')})`,
          items: { type: 'string', format: 'iri-reference' },
        },
      },
      required: ['iris'],
    },
    'Publishing.Result': {
      type: 'object',
      properties: {
        '@context': contextSchema,
        '@type': { type: 'string', const: 'PublishResult' },
        published: {
          type: 'array',
          description: 'Each published record as now served (its published IRI)',
          items: { oneOf: publishable.map((r) => ref(schemaNames.read(r))) },
        },
      },
      required: ['@type', 'published'],
    },
  }
}

function sessionOperations(registry: ResourceRegistry, cookieName: string | undefined): Record<string, Schema> {
  const prefix = registry.apiPrefix
  const user = registry.ofKind('user')[0]
  const tags = ['Session']
  const setCookie = {
    'Set-Cookie': {
      description: 'The JWT and the refresh token, as HttpOnly cookies',
      schema: { type: 'string' },
    },
  }
  const paths: Record<string, Schema> = {
    [`${prefix}/login`]: {
      post: {
        operationId: 'login',
        tags,
        summary: 'Signs in: sets the JWT and refresh token cookies.',
        security: [],
        requestBody: {
          required: true,
          content: {
            [MEDIA_JSON]: { schema: ref('Session.Credentials') },
            [MEDIA_JSONLD]: { schema: ref('Session.Credentials') },
          },
        },
        responses: {
          204: { description: 'Signed in', headers: setCookie },
          400: responseRef('BadRequest'),
          401: responseRef('Unauthorized'),
          415: responseRef('UnsupportedMediaType'),
        },
      },
    },
    [`${prefix}/logout`]: {
      post: {
        operationId: 'logout',
        tags,
        summary: 'Signs out: revokes the refresh token and clears the cookies.',
        security: [],
        responses: { 204: { description: 'Signed out', headers: setCookie } },
      },
    },
  }
  if (user) {
    paths[`${prefix}/me`] = {
      get: {
        operationId: 'getCurrentUser',
        tags,
        summary: 'Retrieves the signed-in user.',
        security: security(cookieName, { optional: false }),
        responses: {
          200: jsonLdResponse('The signed-in user', schemaNames.read(user)),
          401: responseRef('Unauthorized'),
        },
      },
    }
  }
  return paths
}

/**
 * What a plugin's `openApi` hook gets to describe its own endpoints with the
 * document's shared parts (security schemes, error responses, schemas).
 */
export interface OpenApiKit {
  registry: ResourceRegistry
  prefix: string
  media: { jsonld: string; json: string; mergePatch: string }
  /** Security requirement: signed in, or optional (public, with more for signed-in callers). */
  security(optional: boolean): Array<Record<string, string[]>>
  ref(schemaName: string): Schema
  /** A shared response: BadRequest, Unauthorized, Forbidden, NotFound, UnsupportedMediaType, UnprocessableEntity. */
  responseRef(name: string): Schema
  jsonLdResponse(description: string, schemaName: string, headers?: Schema): Schema
  errorResponse(description: string): Schema
  schemaNames: typeof schemaNames
}

/** Paths, schemas and tags a plugin adds to the document. */
export interface OpenApiContribution {
  paths?: Record<string, Schema>
  schemas?: Record<string, Schema>
  tags?: Array<{ name: string; description: string }>
}

/** The OpenAPI 3.1.0 document of the API (served as {prefix}/docs.json), with what each extension adds. */
export function openApiDocument(registry: ResourceRegistry, info: OpenApiInfo, extensions: HydraExtension[] = []): Record<string, unknown> {
  const prefix = registry.apiPrefix
  const resources = registry.all()
  const schemas: Record<string, Schema> = { ...sharedSchemas(registry), ...publishSchemas(registry) }
  for (const resource of resources) {
    const properties = resourceProperties(resource, registry)
    schemas[schemaNames.read(resource)] = readSchema(resource, properties)
    schemas[schemaNames.collection(resource)] = {
      allOf: [
        ref('Hydra.Collection'),
        { type: 'object', properties: { member: { type: 'array', items: ref(schemaNames.read(resource)) } } },
      ],
    }
    schemas[schemaNames.write(resource)] = writeSchema(properties, { patch: false })
    schemas[schemaNames.patch(resource)] = writeSchema(properties, { patch: true })
  }

  const paths: Record<string, unknown> = {
    [`${prefix}/`]: {
      get: {
        operationId: 'getEntrypoint',
        tags: ['Entrypoint'],
        summary: 'The API entrypoint: the IRI of every resource collection.',
        security: [],
        responses: {
          200: {
            description: 'The entrypoint',
            headers: {
              Link: { description: 'The Hydra API documentation (rel hydra:apiDocumentation)', schema: { type: 'string' } },
            },
            content: { [MEDIA_JSONLD]: { schema: ref('Hydra.Entrypoint') } },
          },
        },
      },
    },
    ...sessionOperations(registry, info.cookieName),
    ...publishOperations(registry, info.cookieName),
  }
  for (const resource of resources) Object.assign(paths, resourceOperations(resource, info.cookieName))
  const kit: OpenApiKit = {
    registry,
    prefix,
    media: { jsonld: MEDIA_JSONLD, json: MEDIA_JSON, mergePatch: MEDIA_MERGE_PATCH },
    security: (optional) => security(info.cookieName, { optional }),
    ref,
    responseRef,
    jsonLdResponse,
    errorResponse,
    schemaNames,
  }
  const extensionTags: Array<{ name: string; description: string }> = []
  for (const extension of extensions) {
    const contribution = extension.openApi?.(kit)
    if (!contribution) continue
    // Per method: a plugin may take over one operation of a generic path (GET /_/routes/{id} by path) and leave the others.
    for (const [path, operations] of Object.entries(contribution.paths ?? {})) {
      paths[path] = { ...((paths[path] as Schema | undefined) ?? {}), ...operations }
    }
    Object.assign(schemas, contribution.schemas ?? {})
    extensionTags.push(...(contribution.tags ?? []))
  }

  const securitySchemes: Record<string, Schema> = {
    bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The session JWT in an Authorization header' },
  }
  if (info.cookieName) {
    securitySchemes.cookieAuth = { type: 'apiKey', in: 'cookie', name: info.cookieName, description: 'The session JWT cookie set by login' }
  }

  const tags = [
    { name: 'Entrypoint', description: 'API entrypoint' },
    { name: 'Session', description: 'Sign in, sign out, current user' },
    ...(resources.some((r) => publishableOf(r) !== null) ? [{ name: 'Publishing', description: 'Draft/publish workflow of publishable types' }] : []),
    ...resources.map((r) => ({ name: r.meta.shortName, description: `${r.meta.shortName} resources (${r.collectionIri})` })),
    ...extensionTags,
  ]

  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        info.description ??
        'JSON-LD API with the Hydra vocabulary. Reads are public and filtered per resource; writes need a signed-in user. ' +
          `Hydra documentation: ${prefix}/docs.jsonld.`,
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl.replace(/\/+$/, '') }] } : {}),
    tags,
    paths,
    components: {
      schemas,
      responses: sharedResponses,
      parameters: {
        page: {
          name: 'page',
          in: 'query',
          required: false,
          description: 'Page number, from 1',
          schema: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
        },
        id: {
          name: 'id',
          in: 'path',
          required: true,
          description: 'Resource identifier (a UUID; anything else is a 404)',
          schema: { type: 'string', format: 'uuid' },
        },
      },
      securitySchemes,
    },
  }
}
