import type { HydraContext } from '../../../hydra/context.js'
import { notFound } from '../../../hydra/errors.js'
import type { OperationResult } from '../../../hydra/operations.js'
import { denyAccessUnlessGranted } from '../../../hydra/security.js'
import { routeRulesAllow } from '../access/rules.js'
import { isRouteAdmin } from '../fields.js'
import { parsePreviewMoment } from '../previewMoment.js'
import { findRouteByPath } from '../routeByPath.js'

/**
 * `?at=<ISO datetime>` (beyond the contract): a route admin previews the
 * route as the public will see it at that moment. Anyone else is refused
 * (401/403): the schedule of routes not yet live is not theirs to probe.
 */
function previewMoment(ctx: HydraContext): Date | undefined {
  const raw = ctx.query.get('at')
  if (raw === null) return undefined
  denyAccessUnlessGranted(ctx, isRouteAdmin(ctx.user, ctx.options))
  return parsePreviewMoment(raw)
}

/**
 * GET /_/routes/{route_path}: the route at this path, read with the
 * caller's access (one query: liveness is compared inside it). 401/403 when
 * a route_security rule matching the path fails for the caller; 404 when
 * there is none or it is not live for the caller (own or inherited go-live
 * date). Admins get every route, with `_metadata.effectiveLiveAt`; with
 * `?at=` they get it as it will be at that moment (404 when not live then).
 */
export async function getRouteByPath(ctx: HydraContext, path: unknown): Promise<OperationResult> {
  if (typeof path !== 'string' || !path.startsWith('/')) throw notFound()
  denyAccessUnlessGranted(ctx, routeRulesAllow(ctx.options, ctx.user, path))
  const at = previewMoment(ctx)
  const doc = await findRouteByPath(ctx, path)
  if (!doc) throw notFound()
  if (at) {
    const effective = doc.effectiveLiveAt ? new Date(doc.effectiveLiveAt as string) : null
    if (!effective || effective > at) throw notFound()
  }
  const resource = ctx.registry.bySlug('routes')!
  // The preview moment joins the item's _metadata entries (the pipeline merges it in).
  return {
    status: 200,
    item: { resource, doc, ...(at ? { with: { _metadata: { previewAt: at.toISOString() } } } : {}) },
  }
}
