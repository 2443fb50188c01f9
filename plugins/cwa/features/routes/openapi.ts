import type { OpenApiDocument, OpenApiKit, Schema } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'
import type { PathParameterDoc } from '../../hydra/pathParameters.js'
import type { Resource } from '../../core/registry.js'

/** The OpenAPI description of the route endpoints (endpoints.ts) and their schemas. */

/** A route's `{route+}`, documented as the item operation's `{id}` (endpoints.ts declares it with its template). */
export const routeParameter = (routes: Resource): PathParameterDoc => ({
  name: 'id',
  description: `The route: its UUID, or its path written after the segment (\`${routes.collectionIri}//blog/post\`, or URL-encoded \`${routes.collectionIri}/%2Fblog%2Fpost\`)`,
})

function parts(kit: OpenApiKit, routes: Resource) {
  const read = kit.schemaNames.read(routes)
  const tags = ['Route']
  const at: Schema = {
    name: 'at',
    in: 'query',
    required: false,
    description: 'Preview as of this moment (ISO 8601; publish permission only, else 401/403; a bad date is 400)',
    schema: { type: 'string', format: 'date-time' },
  }
  const json = (schemaName: string, description: string) => ({
    description,
    content: { [kit.media.jsonld]: { schema: kit.ref(schemaName) } },
  })
  return { read, tags, at, json }
}

export const routeDocs = {
  get:
    (routes: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { read, tags, at } = parts(kit, routes)
      return {
        pathParameters: [params.route!],
        operation: {
          operationId: 'getRoute',
          tags,
          summary: 'Retrieves a Route by UUID or by path.',
          description:
            'A route that is not live (own or inherited liveAt) is a 404 for callers without the publish permission; a route_security rule that fails is 401/403. A redirect route carries redirectPath.',
          security: kit.security(true),
          parameters: [at],
          responses: {
            200: kit.jsonLdResponse('The route', read),
            ...kit.errorResponses(400, 401, 403, 404),
          },
        },
      }
    },
  patch:
    (routes: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { read, tags } = parts(kit, routes)
      return {
        pathParameters: [params.route!],
        operation: {
          operationId: 'patchRoute',
          tags,
          summary: 'Updates a Route by UUID or by path; cascadeChildPaths renames the subtree.',
          description:
            'With cascadeChildPaths true (by path) every routed descendant gets the new prefix and a redirect is created from every old path, in one transaction. Without it only this route changes.',
          security: kit.security(false),
          requestBody: {
            required: true,
            content: {
              [kit.media.mergePatch]: {
                schema: {
                  allOf: [
                    kit.ref(kit.schemaNames.patch(routes)),
                    { type: 'object', properties: { cascadeChildPaths: { type: 'boolean' } } },
                  ],
                },
              },
            },
          },
          responses: {
            200: kit.jsonLdResponse('The updated route', read),
            ...kit.errorResponses(400, 401, 403, 404, 415, 422),
            // If-Match (hydra/version.ts): the route changed since the version read.
            412: kit.errorResponse('Precondition failed: the route changed since the version If-Match names'),
          },
        },
      }
    },
  generate:
    (routes: Resource) =>
    (kit: OpenApiKit): EndpointDoc => {
      const { read, tags } = parts(kit, routes)
      return {
        operation: {
          operationId: 'generateRoute',
          tags,
          summary: "Generates a route from the record's title under its parent's route.",
          description:
            'The path is the parent route path plus the title slug (-1, -2... on conflict). A record that had a route: the old route becomes a redirect to the new one. 422 under an unrouted parent.',
          security: kit.security(false),
          responses: {
            200: kit.jsonLdResponse('The path would not change: the current route', read),
            201: kit.jsonLdResponse('The generated route', read),
            ...kit.errorResponses(401, 403, 415, 422),
          },
        },
      }
    },
  children:
    (routes: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { tags, json } = parts(kit, routes)
      return {
        operation: {
          operationId: 'getRouteChildren',
          tags,
          summary: 'The routed descendants of a route, as a tree (admins).',
          security: kit.security(false),
          parameters: [params.route!],
          responses: {
            200: json('Routes.Children', 'The tree of routed descendants'),
            ...kit.errorResponses(401, 403, 404),
          },
        },
      }
    },
  manifest:
    (routes: Resource) =>
    (kit: OpenApiKit, params: Record<string, Schema>): EndpointDoc => {
      const { tags, at, json } = parts(kit, routes)
      return {
        operation: {
          operationId: 'getResourceManifest',
          tags,
          summary: 'Every resource IRI a front end needs to render a route, by rendering depth.',
          description:
            'A fixed number of SQL queries whatever the page holds. 404 when the route is not live for the caller.',
          security: kit.security(true),
          parameters: [params.route!, at],
          responses: {
            200: json('Routes.Manifest', 'The manifest'),
            ...kit.errorResponses(400, 401, 403, 404),
          },
        },
      }
    },
}

/** The schemas the route operations refer to. */
export function amendRouteDocs(document: OpenApiDocument, kit: OpenApiKit): void {
  if (!kit.registry.bySlug('routes')) return
  const node: Schema = {
    type: 'object',
    properties: {
      iri: { type: 'string', format: 'iri-reference' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Routes.ManifestNode' } },
    },
    required: ['iri', 'children'],
  }
  const child: Schema = {
    type: 'object',
    properties: {
      route: { type: 'string', format: 'iri-reference' },
      path: { type: 'string' },
      children: { type: 'array', items: { $ref: '#/components/schemas/Routes.Child' } },
    },
    required: ['route', 'path', 'children'],
  }
  Object.assign(document.components.schemas, {
    'Routes.ManifestNode': node,
    'Routes.Manifest': {
      type: 'object',
      properties: { resource_iris: { type: 'array', items: kit.ref('Routes.ManifestNode') } },
      required: ['resource_iris'],
    },
    'Routes.Child': child,
    'Routes.Children': {
      type: 'object',
      properties: { children: { type: 'array', items: kit.ref('Routes.Child') } },
      required: ['children'],
    },
  })
}
