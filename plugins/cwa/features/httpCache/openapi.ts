import type { OpenApiDocument, OpenApiKit } from '../../hydra/docs/openapi/kit.js'
import type { EndpointDoc } from '../../hydra/endpoint.js'

/** The OpenAPI operations of the purge endpoints (endpoints.ts). */
const purge =
  (operationId: string, summary: string, description: string) =>
  (kit: OpenApiKit): EndpointDoc => ({
    operation: {
      operationId,
      tags: ['HTTP cache'],
      summary,
      description: `${description} Admins only (401 anonymous, 403 others); no request body. 502 when the HTTP cache did not take the purge.`,
      security: kit.security(false),
      responses: {
        204: { description: 'Purged (or nothing to purge: no purger is configured)' },
        ...kit.errorResponses(401, 403),
        502: kit.errorResponse('The HTTP cache could not be purged'),
      },
    },
  })

export const purgeDocs = {
  renderedHtml: purge(
    'purgeRenderedHtml',
    'Purges the cached rendered HTML pages.',
    'Purges every cached page of rendered front-end HTML by its shared tag (httpCache.renderedHtmlTag, default cwa-html); cached API responses stay. Succeeds and does nothing when no purger is configured.',
  ),
  httpCache: purge(
    'purgeHttpCache',
    'Flushes the whole HTTP cache.',
    'Flushes every cached response, API and rendered HTML alike, with the varnish purger (a BAN of everything); with any other purger nothing is flushed and it succeeds.',
  ),
}

/** The tag of the purge operations, listed with the others. */
export function amendHttpCacheDocs(document: OpenApiDocument): void {
  document.tags.push({ name: 'HTTP cache', description: 'Purging the shared HTTP cache (admins)' })
}
