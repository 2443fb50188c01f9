import type { Endpoint } from '../../endpoint.js'
import { inputJsonSchema } from '../../input.js'
import { declaredPathParameters, documentedTemplate } from '../../pathParameters.js'
import type { HydraExtension } from '../../extension.js'
import { amendOpenApi } from '../../extensions/formatHooks.js'
import type { ResourceRegistry } from '../../../core/registry.js'
import {
  MEDIA_JSON,
  MEDIA_JSONLD,
  MEDIA_MERGE_PATCH,
  type OpenApiDocument,
  openApiKit,
  ref,
  type Schema,
  schemaNames,
  sharedResponses,
} from './kit.js'
import { resourceProperties } from './properties.js'
import { readSchema, sharedSchemas, writeSchema } from './schemas.js'

export interface OpenApiInfo {
  title: string
  version: string
  /** Absolute base URL of the server (scheme and host); paths carry the API prefix. */
  serverUrl?: string
  description?: string
  /** How callers authenticate (from the extensions' securitySchemes hooks). */
  securitySchemes?: Record<string, Schema>
}

/** The path an endpoint is documented under: `{name+}` is written `{name}` (OpenAPI has no multi-segment parameter). */
export function documentedPath(prefix: string, endpoint: Endpoint): string {
  return `${prefix}${documentedTemplate(endpoint)}`
}

/**
 * The OpenAPI 3.1.0 document of the API (served as {prefix}/docs.json):
 * the schemas derived from the registry, one operation per endpoint of the
 * table (each endpoint describes itself), then what each extension amends.
 */
export function openApiDocument(
  registry: ResourceRegistry,
  info: OpenApiInfo,
  extensions: readonly HydraExtension[],
  endpoints: Endpoint[],
): OpenApiDocument {
  const prefix = registry.apiPrefix
  const resources = registry.all()
  const kit = openApiKit(registry, info.securitySchemes ?? {})
  const schemas: Record<string, Schema> = { ...sharedSchemas(registry) }
  for (const resource of resources) {
    const properties = resourceProperties(resource, registry, extensions)
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

  const paths: Record<string, Schema> = {}
  const pathParameters = new Map<string, PathParameters[]>()
  for (const endpoint of endpoints) {
    if (endpoint.root || typeof endpoint.docs !== 'function') continue
    const doc = endpoint.docs(kit, declaredPathParameters(endpoint))
    const path = documentedPath(prefix, endpoint)
    const method = endpoint.method.toLowerCase()
    paths[path] = { ...(paths[path] ?? {}), [method]: withRequestBody(doc.operation, endpoint) }
    pathParameters.set(path, [...(pathParameters.get(path) ?? []), { method, parameters: doc.pathParameters }])
  }
  for (const [path, operations] of pathParameters) placePathParameters(paths[path]!, operations)

  const document: OpenApiDocument = {
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
    tags: [
      { name: 'Entrypoint', description: 'API entrypoint' },
      ...resources.map((r) => ({
        name: r.meta.shortName,
        description: `${r.meta.shortName} resources (${r.collectionIri})`,
      })),
    ],
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
      securitySchemes: info.securitySchemes ?? {},
    },
  }
  amendOpenApi(extensions, document, kit)
  // A named input is a component: where an extension placed it, else after the others.
  for (const endpoint of endpoints) {
    const name = endpoint.input?.kind === 'object' ? endpoint.input.name : undefined
    if (name && !document.components.schemas[name]) document.components.schemas[name] = inputJsonSchema(endpoint.input!)
  }
  return document
}

interface PathParameters {
  method: string
  parameters?: Schema[]
}

/**
 * The path parameters of the operations sharing one documented path: on the path when every operation has the
 * same ones, else on each operation (a route's GET and PATCH take a UUID or a path, its generic DELETE a UUID).
 */
function placePathParameters(pathItem: Schema, operations: PathParameters[]): void {
  const first = JSON.stringify(operations[0]!.parameters)
  if (operations.every((operation) => JSON.stringify(operation.parameters) === first)) {
    if (operations[0]!.parameters) pathItem.parameters = operations[0]!.parameters
    return
  }
  for (const { method, parameters } of operations) {
    if (!parameters) continue
    const operation = pathItem[method] as Schema
    operation.parameters = [...parameters, ...((operation.parameters as Schema[] | undefined) ?? [])]
  }
}

/**
 * The request body of an endpoint with an `input`, generated from it: required, one entry per media type the
 * pipeline accepts for it (hydra/pipeline/body.ts), a reference when the input names its component. Placed
 * before the responses, where the operations wrote it.
 */
function withRequestBody(operation: Schema, endpoint: Endpoint): Schema {
  const node = endpoint.input
  if (!node) return operation
  const schema = node.kind === 'object' && node.name ? ref(node.name) : inputJsonSchema(node)
  const media = endpoint.bodyTypes ?? (endpoint.method === 'PATCH' ? [MEDIA_MERGE_PATCH] : [MEDIA_JSONLD, MEDIA_JSON])
  const requestBody = { required: true, content: Object.fromEntries(media.map((type) => [type, { schema }])) }
  const { responses, ...rest } = operation
  return { ...rest, requestBody, ...(responses === undefined ? {} : { responses }) }
}
