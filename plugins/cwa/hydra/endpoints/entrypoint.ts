import type { Endpoint } from '../endpoint.js'
import { entrypoint } from '../entrypoint.js'
import { notFound } from '../errors.js'
import { entrypointContext, errorContext, resourceContext } from '../jsonldContext.js'
import { baseUrlOf } from '../requestUrl.js'

/** GET {prefix}/ (the entrypoint) and GET {prefix}/contexts/{type} (the JSON-LD contexts). */
export const entrypointEndpoints: Endpoint[] = [
  {
    method: 'GET',
    path: '/',
    handler: async (ctx) => ({ status: 200, body: entrypoint(ctx.registry) }),
    docs: (kit) => ({
      operation: {
        operationId: 'getEntrypoint',
        tags: ['Entrypoint'],
        summary: 'The API entrypoint: the IRI of every resource collection.',
        security: [],
        responses: {
          200: {
            description: 'The entrypoint',
            headers: {
              Link: {
                description: 'The Hydra API documentation (rel hydra:apiDocumentation)',
                schema: { type: 'string' },
              },
            },
            content: { [kit.media.jsonld]: { schema: kit.ref('Hydra.Entrypoint') } },
          },
        },
      },
    }),
  },
  {
    method: 'GET',
    path: '/contexts/{type}',
    paramDocs: { type: { description: 'A short name (e.g. Page), Entrypoint, Error or ConstraintViolation' } },
    handler: async (ctx, { params, url }) => {
      const base = baseUrlOf(url)
      const type = params.type!.replace(/\.jsonld$/, '')
      const resource = ctx.registry.byShortName(type)
      const body =
        type === 'Entrypoint'
          ? entrypointContext(ctx.registry, base)
          : type === 'Error' || type === 'ConstraintViolation'
            ? errorContext(type, ctx.registry, base)
            : resource
              ? resourceContext(resource, ctx.registry, base, ctx.extensions)
              : null
      if (!body) throw notFound(`No context for "${type}".`)
      return { status: 200, body }
    },
    docs: (kit, params) => ({
      operation: {
        operationId: 'getContext',
        tags: ['Entrypoint'],
        summary: 'The JSON-LD context of a resource class, of the entrypoint or of an error.',
        security: [],
        parameters: [params.type!],
        responses: {
          200: { description: 'The context', content: { [kit.media.jsonld]: { schema: { type: 'object' } } } },
          404: kit.responseRef('NotFound'),
        },
      },
    }),
  },
]
