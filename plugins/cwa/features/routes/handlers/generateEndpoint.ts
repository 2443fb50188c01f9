import type { Endpoint, PayloadRequest } from 'payload'
import { classifyError, HttpError, ViolationError } from '../../../hydra/errors.js'
import { buildContext } from '../../../hydra/pipeline/context.js'
import { formatBody } from '../../../hydra/pipeline/format.js'
import { assertMayWriteRoutes } from '../structure/access.js'
import { generateRoute } from './generate.js'

/**
 * `POST /api/<pages or page data slug>/:id/generate-route` on Payload's REST
 * API: the admin panel's "Generate route from title". It runs the contract's
 * generation (POST /_/routes/generate, same rules, same answers) for a caller
 * signed in to the admin panel, whose Payload session the JSON-LD API does
 * not read. A record's first route waits for the page's publication (its
 * liveAt empty). Answers the route as JSON-LD, or `{violations}` / `{detail}`.
 */
export function generateRouteEndpoint(iriBase: string, property: 'page' | 'pageData'): Endpoint {
  return {
    path: '/:id/generate-route',
    method: 'post',
    handler: async (req: PayloadRequest) => {
      const id = String(req.routeParams?.id ?? '')
      const url = new URL(req.url ?? 'http://localhost/')
      const ctx = await buildContext(req.payload, url, req.headers, req.user ?? null)
      try {
        // The endpoint's security, as the contract's endpoint declares it; the body always has its input's shape.
        await assertMayWriteRoutes(ctx, 'create')
        const iri = `${iriBase}/${id}`
        // The page's first route waits for "Publish page" (docs/publishing.md); the contract's endpoint does not.
        const body = property === 'page' ? { page: iri } : { pageData: iri }
        const result = await generateRoute(ctx, body, { firstRouteWaits: true })
        // Answered on Payload's REST API, outside the pipeline: its format step makes the route's JSON-LD.
        return Response.json((await formatBody(ctx, result)).json, { status: result.status })
      } catch (error) {
        const refusal = classifyError(error, !req.user, 'POST')
        if (refusal instanceof ViolationError)
          return Response.json({ violations: refusal.violations }, { status: refusal.status })
        const status = refusal instanceof HttpError ? refusal.status : 500
        return Response.json({ detail: refusal.message }, { status })
      }
    },
  }
}
