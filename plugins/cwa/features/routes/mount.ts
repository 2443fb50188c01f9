import type { NextFunction, Request, Response, Router } from 'express'
import type { Payload } from 'payload'
import { handle } from '../../hydra/http'
import { isUuid } from '../../hydra/registry'
import { routeChildren } from './endpoints/children'
import { generateRoute } from './endpoints/generate'
import { getRouteByPath } from './endpoints/getByPath'
import { patchRouteByPath } from './endpoints/patchByPath'
import { resourceManifest } from './manifest/endpoint'
import { mountItemGates } from './access/gate'
import { anonymousCacheLifetime } from './cache'

/**
 * `{route_path}` as sent: `/_/routes//blog` (the path's own slash), or
 * URL-encoded `/_/routes/%2Fblog`.
 */
export function routeParam(raw: string): string {
  let value = raw
  try {
    value = decodeURIComponent(raw)
  } catch {
    // left as sent: no route has a malformed escape in its path
  }
  return value
}

/** A UUID names a route by id: left to the generic item operations. */
const pathOnly = (req: Request, _response: Response, next: NextFunction) =>
  isUuid(routeParam(String(req.params[0]))) ? next('route') : next()

/**
 * The route endpoints of the contract, mounted before the generic resource
 * routes so that `/_/routes/{route_path}` is a path lookup (a UUID still
 * names a route by id).
 */
export function mountRouteEndpoints(router: Router, payload: Payload): void {
  router.use(anonymousCacheLifetime(payload))
  router.post('/_/routes/generate', handle(payload, (ctx, req) => generateRoute(ctx, req.body)))
  router.get(/^\/_\/resource_manifest\/(.+)$/, handle(payload, (ctx, req) => resourceManifest(ctx, routeParam(String(req.params[0])))))
  router.get(/^\/_\/routes\/(.+)\/children\/?$/, handle(payload, (ctx, req) => routeChildren(ctx, routeParam(String(req.params[0])))))
  router.get(/^\/_\/routes\/(.+)$/, pathOnly, handle(payload, (ctx, req) => getRouteByPath(ctx, routeParam(String(req.params[0])))))
  // By path or id: cascadeChildPaths is a write flag of every route PATCH.
  router.patch(/^\/_\/routes\/(.+)$/, handle(payload, (ctx, req) => patchRouteByPath(ctx, routeParam(String(req.params[0])), req.body)))
  // After the path lookups: a UUID under /_/routes/ reaches the item gates.
  mountItemGates(router, payload)
}
