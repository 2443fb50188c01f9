import { DEFAULT_ITEMS_PER_PAGE, DEFAULT_MAX_ITEMS_PER_PAGE } from '../../filters.js'
import type { Resource } from '../../../core/registry.js'
import { adoptsOnCreate } from '../../../core/hooks/groupAdoption.js'
import type { EndpointDoc } from '../../endpoint.js'
import { type OpenApiKit, type Schema } from './kit.js'

/** The OpenAPI description of the five operations every resource has (collection GET/POST, item GET/PATCH/DELETE). */

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

function collectionParameters(resource: Resource, kit: OpenApiKit): Schema[] {
  const { meta } = resource
  const params: Schema[] = [kit.parameterRef('page')]
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

const locationHeaders = {
  Location: { description: 'IRI of the created resource', schema: { type: 'string', format: 'iri-reference' } },
  'Content-Location': {
    description: 'IRI of the created resource',
    schema: { type: 'string', format: 'iri-reference' },
  },
}

/** Per operation, the documentation of one resource's endpoint. */
export const resourceDocs = {
  getCollection:
    (resource: Resource) =>
    (kit: OpenApiKit): EndpointDoc => {
      const { shortName } = resource.meta
      return {
        operation: {
          operationId: `get${shortName}Collection`,
          tags: [shortName],
          summary: `Retrieves the collection of ${shortName} resources.`,
          security: kit.security(true),
          parameters: collectionParameters(resource, kit),
          responses: {
            200: kit.jsonLdResponse(`${shortName} collection`, kit.schemaNames.collection(resource)),
            ...kit.errorResponses(400, 401, 403, 422),
          },
        },
      }
    },
  post:
    (resource: Resource, { open = false }: { open?: boolean } = {}) =>
    (kit: OpenApiKit): EndpointDoc => {
      const { shortName } = resource.meta
      return {
        operation: {
          operationId: `post${shortName}`,
          tags: [shortName],
          summary: `Creates a ${shortName} resource.`,
          // An open create (an extension's publicCreate: registration) needs no credentials; the resource's own access decides.
          security: kit.security(open),
          requestBody: {
            required: true,
            description: `The new ${shortName} resource`,
            content: {
              [kit.media.jsonld]: { schema: kit.ref(kit.schemaNames.write(resource)) },
              [kit.media.json]: { schema: kit.ref(kit.schemaNames.write(resource)) },
            },
          },
          responses: {
            201: kit.jsonLdResponse(`${shortName} resource created`, kit.schemaNames.read(resource), locationHeaders),
            ...(adoptsOnCreate(resource.slug)
              ? {
                  200: kit.jsonLdResponse(
                    `An owner-less ${shortName} with this reference, taken over by the owner the body names (nothing created)`,
                    kit.schemaNames.read(resource),
                  ),
                  409: kit.errorResponse(`The owner the body names has the ${shortName} with this reference already`),
                }
              : {}),
            ...kit.errorResponses(400, 401, 403, 415, 422),
          },
        },
      }
    },
  getItem:
    (resource: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { shortName } = resource.meta
      return {
        pathParameters: Object.values(params),
        operation: {
          operationId: `get${shortName}`,
          tags: [shortName],
          summary: `Retrieves a ${shortName} resource.`,
          security: kit.security(true),
          parameters: filterParameters(resource),
          responses: {
            200: kit.jsonLdResponse(`${shortName} resource`, kit.schemaNames.read(resource)),
            ...kit.errorResponses(400, 401, 403, 404),
          },
        },
      }
    },
  patch:
    (resource: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { shortName } = resource.meta
      return {
        pathParameters: Object.values(params),
        operation: {
          operationId: `patch${shortName}`,
          tags: [shortName],
          summary: `Updates the ${shortName} resource.`,
          description: 'JSON Merge Patch: properties left out are unchanged, null clears a property.',
          security: kit.security(false),
          parameters: [
            {
              name: 'If-Match',
              in: 'header',
              required: false,
              description:
                'The ETag of the read the change is based on: the write is refused (412) when the record, or the draft it goes to, changed since. Without it nothing is checked.',
              schema: { type: 'string' },
            },
          ],
          requestBody: {
            required: true,
            description: `The properties of the ${shortName} resource to change`,
            content: { [kit.media.mergePatch]: { schema: kit.ref(kit.schemaNames.patch(resource)) } },
          },
          responses: {
            200: kit.jsonLdResponse(`${shortName} resource updated`, kit.schemaNames.read(resource)),
            ...kit.errorResponses(400, 401, 403, 404, 415, 422),
            412: kit.errorResponse(
              "Precondition failed: the record, or the draft the write goes to, changed since the version If-Match names (the body's conflict says what and when)",
            ),
          },
        },
      }
    },
  delete:
    (resource: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { shortName } = resource.meta
      return {
        pathParameters: Object.values(params),
        operation: {
          operationId: `delete${shortName}`,
          tags: [shortName],
          summary: `Removes the ${shortName} resource.`,
          security: kit.security(false),
          responses: {
            204: { description: `${shortName} resource deleted` },
            ...kit.errorResponses(401, 403, 404),
          },
        },
      }
    },
}
