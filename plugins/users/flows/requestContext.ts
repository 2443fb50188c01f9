import type { PayloadRequest } from 'payload'
import type { HydraContext } from '../../../src/hydra/context'
import { getOptions, getRegistry } from '../../../src/hydra/registry'

/**
 * The JSON-LD context of a Payload request, for flow code called from
 * collection hooks (writes through the JSON-LD API, the admin panel or the
 * Local API). The request's headers (Origin, Referer) and transaction carry over.
 */
export function contextFromRequest(req: PayloadRequest): HydraContext {
  const url = (() => {
    try {
      return new URL(req.url ?? 'http://localhost/')
    } catch {
      return new URL('http://localhost/')
    }
  })()
  return {
    payload: req.payload,
    registry: getRegistry(req.payload.config),
    options: getOptions(req.payload.config),
    req,
    user: req.user ?? null,
    query: url.searchParams,
    headers: req.headers ?? new Headers(),
    requestPath: url.pathname,
    memo: new Map(),
  }
}
