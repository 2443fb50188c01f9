import type { HydraContext } from '../../../hydra/context.js'
import { notFound } from '../../../hydra/errors.js'
import { denyAccessUnlessGranted } from '../../../hydra/security.js'
import { dependsOn } from '../../../core/utils/readDependencies.js'
import { isUuid } from '../../../core/registry.js'
import { parsePreviewMoment } from '../previewMoment.js'
import type { OperationResult } from '../../../hydra/operations.js'
import { isRouteAdmin } from '../fields.js'
import { routeRulesAllow } from '../access/rules.js'
import { canSeeRoute, isLiveAt } from '../liveness.js'
import { structureSchema } from '../structure/schema.js'
import { assembleManifest, type Depth, propertySeeds, renderPage, type VisibleDepth } from './assemble.js'
import { loadRouteChain, type RouteRow } from './chain.js'
import { pickVersion, type VersionMode } from './versions.js'
import { loadEdges } from './walk.js'

/** The route named by a path (`/blog/post`) or a UUID, with its target and that target's chain, in one query. */
function findRoute(ctx: HydraContext, id: string): ReturnType<typeof loadRouteChain> {
  return isUuid(id)
    ? loadRouteChain(ctx.payload, ctx.req, 'id', id.toLowerCase())
    : loadRouteChain(ctx.payload, ctx.req, 'path', id)
}

/**
 * `?at=<ISO datetime>` (beyond the contract): a caller with the publish
 * permission previews the manifest as it will be at that moment. Anyone
 * else asking for it is refused (401 / 403) rather than served the present
 * under a URL that claims another moment.
 */
function previewMoment(ctx: HydraContext, permitted: boolean): Date | null {
  const raw = ctx.query.get('at')
  if (raw === null) return null
  denyAccessUnlessGranted(ctx, permitted, 'Previewing another moment needs the publish permission.')
  return parsePreviewMoment(raw)
}

/**
 * As the route itself answers: a route_security rule denies it (401/403), a
 * route not live for the caller is a 404. With `?at=` liveness is taken as
 * of that moment, for the permitted caller too.
 */
async function assertVisible(ctx: HydraContext, route: RouteRow, at: Date | null): Promise<void> {
  denyAccessUnlessGranted(ctx, routeRulesAllow(ctx.options, ctx.user, route.path))
  // With ?at= liveness is taken as of that moment, for the permitted caller too.
  const live = at ? isLiveAt(route.effective_live_at, at) : await canSeeRoute(ctx, route)
  if (!live) throw notFound()
}

/**
 * GET /_/resource_manifest/{id}: every resource IRI a front end needs to
 * render the route, as one containment tree per rendering depth (root
 * ancestor first, the route last). Two SQL queries whatever the page
 * holds: the route with its stored effective go-live date and its target's
 * ancestor chain, then one recursive walk of the containment.
 * 404 when the route does not exist or is not live for the caller (401/403
 * when a route_security rule denies it); a
 * redirect route lists nothing (the client follows its redirect).
 */
export async function resourceManifest(ctx: HydraContext, id: unknown): Promise<OperationResult> {
  const permitted = isRouteAdmin(ctx.user, ctx.options)
  const at = previewMoment(ctx, permitted)
  if (typeof id !== 'string' || (!isUuid(id as unknown) && !id.startsWith('/'))) throw notFound()
  const found = await findRoute(ctx, id)
  if (!found) throw notFound()
  const { route, chain } = found
  await assertVisible(ctx, route, at)
  const routeIri = ctx.registry.itemIri('routes', route.id)
  // The answer depends on the route (its liveness, its target) even when it lists nothing of it (a redirect):
  // a write to the route, its effective go-live recomputed included, drops a kept answer.
  dependsOn(routeIri)
  if (!route.target_kind || !route.target_id) return { status: 200, body: { resource_iris: [] } }

  const mode: VersionMode = !permitted
    ? { kind: 'public', at: new Date() }
    : at
      ? { kind: 'preview', at }
      : { kind: 'draft' }
  const schema = structureSchema(ctx.payload)
  const depths: Depth[] = chain.map((link) => ({
    kind: link.kind,
    row: pickVersion(schema, link.kind, link.row, link.draft, mode),
  }))
  const pages = [
    ...new Set(
      depths
        .filter((d): d is VisibleDepth => d.row !== null)
        .map((d) => renderPage(schema, d))
        .filter((p): p is string => !!p),
    ),
  ]
  const edges = await loadEdges(ctx.payload, ctx.req, { pages, seeds: propertySeeds(schema, depths), mode })
  return { status: 200, body: { resource_iris: assembleManifest(schema, routeIri, depths, edges) } }
}
