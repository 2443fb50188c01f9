import { ROLE_ADMIN } from '../../core/options.js'
import type { Endpoint } from '../../hydra/endpoint.js'
import { HttpError } from '../../hydra/errors.js'
import type { HydraContext } from '../../hydra/context.js'
import { purgeDocs } from './openapi.js'
import { PurgeFailed, purgeHttpCache, purgeRenderedHtml } from './purger.js'

async function purging(ctx: HydraContext, purge: () => Promise<unknown>, what: string) {
  try {
    await purge()
  } catch (error) {
    if (!(error instanceof PurgeFailed)) throw error
    ctx.payload.logger.error({ err: error }, `${what} failed`)
    throw new HttpError(502, `${what} failed: ${error.message}`)
  }
  ctx.payload.logger.info({ user: String(ctx.user!.id) }, `${what} done`)
  return { status: 204 }
}

/**
 * The admin purge buttons: POST /_/rendered_html/purge (the front end's
 * rendered pages, by their shared tag) and POST /_/http_cache/purge
 * (everything, where the purger can). Admin only (their declared security:
 * 401 anonymous, 403 signed-in non-admins); they take no body (one sent is
 * ignored: nothing in a request can widen a purge); cross-site POSTs are
 * refused by the pipeline like every other write. 204 when done, 502 when
 * the cache did not take the purge.
 */
export function httpCacheEndpoints(): Endpoint[] {
  return [
    {
      method: 'POST',
      path: '/_/rendered_html/purge',
      security: { role: ROLE_ADMIN },
      handler: (ctx) => purging(ctx, () => purgeRenderedHtml(ctx.payload), 'Rendered HTML purge'),
      docs: purgeDocs.renderedHtml,
    },
    {
      method: 'POST',
      path: '/_/http_cache/purge',
      security: { role: ROLE_ADMIN },
      handler: (ctx) => purging(ctx, () => purgeHttpCache(ctx.payload), 'HTTP cache purge'),
      docs: purgeDocs.httpCache,
    },
  ]
}
