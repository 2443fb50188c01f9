import type { Resource, ResourceRegistry } from '../../../core/registry.js'

/**
 * The shared parts of the OpenAPI document (media types, references,
 * security requirements, error responses, schema names): what the core and
 * every feature describe their endpoints with.
 */

export type Schema = Record<string, unknown>

/** The OpenAPI 3.1 document as built (features amend it through their `openApi` hook). */
export interface OpenApiDocument {
  openapi: string
  info: Schema
  servers?: Schema[]
  tags: Array<{ name: string; description: string }>
  paths: Record<string, Schema>
  components: {
    schemas: Record<string, Schema>
    responses: Record<string, Schema>
    parameters: Record<string, Schema>
    securitySchemes: Record<string, Schema>
  }
  [key: string]: unknown
}

export const MEDIA_JSONLD = 'application/ld+json'
export const MEDIA_JSON = 'application/json'
export const MEDIA_MERGE_PATCH = 'application/merge-patch+json'

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
export const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` })
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` })

export const schemaNames = {
  read: (r: Resource) => `${r.meta.shortName}.jsonld`,
  collection: (r: Resource) => `${r.meta.shortName}.jsonld.collection`,
  write: (r: Resource) => `${r.meta.shortName}.jsonld.write`,
  patch: (r: Resource) => `${r.meta.shortName}.merge-patch`,
}

export const contextSchema: Schema = {
  description: 'The JSON-LD context (an IRI, or an inline context)',
  oneOf: [{ type: 'string', format: 'iri-reference' }, { type: 'object' }],
}

/** One violation of a 422 body or of `_metadata.violations`. */
export const violationSchema: Schema = {
  type: 'object',
  properties: {
    propertyPath: { type: 'string', description: 'JSON property name (with [index] for list elements)' },
    message: { type: 'string' },
    code: { type: ['string', 'null'] },
  },
  required: ['propertyPath', 'message', 'code'],
}

/**
 * The schema of a JSON-LD node the serializer makes of a handler's output
 * (hydra/serializer.ts): its `@context`, its `@type` (a constant) and its
 * own properties.
 */
export function jsonLdNodeSchema(type: string, properties: Record<string, Schema>, required: string[] = []): Schema {
  return {
    type: 'object',
    properties: { '@context': contextSchema, '@type': { type: 'string', const: type }, ...properties },
    required: ['@type', ...required],
  }
}

export function errorResponse(description: string, schema = 'Hydra.Error'): Schema {
  return { description, content: { [MEDIA_JSONLD]: { schema: ref(schema) } } }
}

export const sharedResponses: Record<string, Schema> = {
  BadRequest: errorResponse('Bad request: malformed JSON body, or an invalid query parameter'),
  Unauthorized: errorResponse('Authentication is required (or the credentials are invalid)'),
  Forbidden: errorResponse('The caller may not perform this operation'),
  NotFound: errorResponse('Resource not found'),
  UnsupportedMediaType: errorResponse('Unsupported request Content-Type'),
  UnprocessableEntity: errorResponse('Validation failed', 'Hydra.ConstraintViolation'),
}

const SHARED_BY_STATUS: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
}

/** The shared error responses of these statuses, keyed by status (`...errorResponses(401, 403)`). */
export function errorResponses(...statuses: number[]): Record<number, Schema> {
  return Object.fromEntries(statuses.map((status) => [status, responseRef(SHARED_BY_STATUS[status]!)]))
}

export function jsonLdResponse(description: string, schemaName: string, headers?: Schema): Schema {
  return { description, ...(headers ? { headers } : {}), content: { [MEDIA_JSONLD]: { schema: ref(schemaName) } } }
}

/**
 * What the core and features describe their endpoints with: the document's
 * shared parts (security requirements, error responses, schemas).
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
  parameterRef(name: string): Schema
  /** The shared error responses of these statuses, keyed by status. */
  errorResponses(...statuses: number[]): Record<number, Schema>
  jsonLdResponse(description: string, schemaName: string, headers?: Schema): Schema
  errorResponse(description: string): Schema
  /** The schema of a node the serializer makes of a handler's output (`@context`, `@type`, the properties). */
  jsonLdNode: typeof jsonLdNodeSchema
  schemaNames: typeof schemaNames
}

/** The kit of a document whose callers authenticate with the given security schemes. */
export function openApiKit(registry: ResourceRegistry, securitySchemes: Record<string, Schema>): OpenApiKit {
  const schemes = Object.keys(securitySchemes).map((name) => ({ [name]: [] as string[] }))
  return {
    registry,
    prefix: registry.apiPrefix,
    media: { jsonld: MEDIA_JSONLD, json: MEDIA_JSON, mergePatch: MEDIA_MERGE_PATCH },
    security: (optional) => (optional ? [{}, ...schemes] : schemes),
    ref,
    responseRef,
    parameterRef,
    errorResponses,
    jsonLdResponse,
    errorResponse,
    jsonLdNode: jsonLdNodeSchema,
    schemaNames,
  }
}
