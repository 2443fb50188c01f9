import type { HydraContext } from '../../../hydra/context.js'
import { notFound } from '../../../hydra/errors.js'
import type { OperationResult } from '../../../hydra/operations.js'
import { findOne } from '../../../core/utils/findOne.js'
import { routedDescendants } from '../structure/descendants.js'
import { routeTarget } from '../structure/routeTarget.js'

export interface RouteChildNode {
  route: string
  path: string
  children: RouteChildNode[]
}

/**
 * GET /_/routes/{route_path}/children (admin only, private: the endpoint's
 * declared security and cache): the routes below this route's page or page
 * data, as a tree. A record without a route adds no node: its routed
 * descendants hang under the nearest routed ancestor. Two queries whatever
 * the size: the route, then one recursive walk.
 */
export async function routeChildren(ctx: HydraContext, path: unknown): Promise<OperationResult> {
  if (typeof path !== 'string' || !path.startsWith('/')) throw notFound()
  const route = await findOne(ctx.payload, {
    collection: 'routes',
    where: { path: { equals: path } },
    overrideAccess: true,
    req: ctx.req,
  })
  if (!route) throw notFound()
  const target = routeTarget(route)
  const rootId = String(route.id)
  const nodes = new Map<string, RouteChildNode>()
  const root: RouteChildNode[] = []
  if (target) {
    // Rows come shallowest first, so a node's parent is always placed before it.
    for (const row of await routedDescendants(ctx.payload, ctx.req, target, rootId)) {
      if (nodes.has(row.routeId)) continue
      const node: RouteChildNode = { route: ctx.registry.itemIri('routes', row.routeId), path: row.path, children: [] }
      nodes.set(row.routeId, node)
      const siblings = row.parentRouteId === rootId ? root : nodes.get(row.parentRouteId)?.children
      siblings?.push(node)
    }
  }
  return { status: 200, body: { children: root } }
}
