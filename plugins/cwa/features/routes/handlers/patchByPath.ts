import type { CollectionSlug, Where } from 'payload'
import type { HydraContext } from '../../../hydra/context.js'
import { badRequest, notFound, violation, ViolationError } from '../../../hydra/errors.js'
import { denormalize } from '../../../hydra/denormalizer.js'
import { type OperationResult, withJoins } from '../../../hydra/operations.js'
import { isUuid } from '../../../core/registry.js'
import { storeFor } from '../../../hydra/store.js'
import { findOne } from '../../../core/utils/findOne.js'
import { assertMayWriteRoutes, routesResource } from '../structure/access.js'
import { type RecordRef, routedDescendants } from '../structure/descendants.js'
import { routeTarget } from '../structure/routeTarget.js'
import { inTransaction } from '../structure/sql.js'
import { withoutRenameRedirects } from '../hooks/renameRedirect.js'

type Doc = Record<string, unknown>

/** `oldPrefix/rest` -> `newPrefix/rest`; null when `path` is not below `oldPrefix`. */
export function replacePrefix(path: string, oldPrefix: string, newPrefix: string): string | null {
  const from = oldPrefix === '/' ? '' : oldPrefix
  const to = newPrefix === '/' ? '' : newPrefix
  return path.startsWith(`${from}/`) ? `${to}${path.slice(from.length)}` : null
}

/**
 * PATCH /_/routes/{route_path or id} (merge-patch: path, liveAt, page, pageData,
 * redirect; plus the write flag cascadeChildPaths). Without the flag only
 * this route moves, and its old path becomes a redirect to it (the routes
 * collection's rename hook, as on every API). With it and a new path, every routed descendant of the
 * route's page or page data (through parentPage / parentPageData at any
 * depth, unrouted records in between included) whose path starts with the
 * old path gets the new prefix, and a redirect route is created at every old
 * path (this route's and each descendant's) to the route now serving it.
 * All in one transaction: any refused write (a taken path...) leaves
 * everything as it was.
 */
export async function patchRouteByPath(ctx: HydraContext, path: unknown, body: unknown): Promise<OperationResult> {
  await assertMayWriteRoutes(ctx, 'update')
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('The request body must be a JSON object.')
  const { cascadeChildPaths = false, ...changes } = body as Doc
  if (typeof cascadeChildPaths !== 'boolean') {
    throw new ViolationError([violation('cascadeChildPaths', 'This value should be of type bool.', 'type')])
  }
  if (typeof path !== 'string' || !(path.startsWith('/') || isUuid(path))) throw notFound()
  const { payload, req } = ctx
  const resource = routesResource(ctx)
  return inTransaction(req, async () => {
    const key: string = path
    const where: Where = isUuid(key) ? { id: { equals: key.toLowerCase() } } : { path: { equals: key } }
    const route = await findOne(payload, { collection: 'routes', where, overrideAccess: true, req })
    if (!route) throw notFound()
    const oldPath = String(route.path)
    const id = String(route.id)
    const data = await denormalize(resource, changes, ctx)
    const update = () => storeFor(resource, ctx).update(id, data)
    // A cascade writes every redirect of the subtree itself, this route's included.
    const updated = cascadeChildPaths ? await withoutRenameRedirects(req, update) : await update()
    const newPath = String(updated.path)
    if (cascadeChildPaths && newPath !== oldPath) await withoutRenameRedirects(req, () => cascade(ctx, route, newPath))
    payload.logger.info({ route: id, from: oldPath, to: newPath, cascadeChildPaths }, 'route updated')
    // As a GET answers it: redirectedRoutes lists the redirect the rename left.
    return { status: 200, item: { resource, doc: await withJoins(resource, updated, ctx) } }
  })
}

/** Moves the subtree under the new prefix and leaves a redirect at every old path. */
async function cascade(ctx: HydraContext, route: Doc, newPath: string): Promise<void> {
  const { payload, req } = ctx
  const oldPath = String(route.path)
  const target: RecordRef | null = routeTarget(route)
  const moves: Array<{ routeId: string; from: string; to: string }> = [
    { routeId: String(route.id), from: oldPath, to: newPath },
  ]
  if (target) {
    for (const descendant of await routedDescendants(payload, req, target, String(route.id))) {
      const to = replacePrefix(descendant.path, oldPath, newPath)
      if (to !== null && to !== descendant.path) moves.push({ routeId: descendant.routeId, from: descendant.path, to })
    }
  }
  const write = { depth: 0, overrideAccess: false, req } as const
  for (const move of moves.slice(1)) {
    await payload.update({
      collection: 'routes' as CollectionSlug,
      id: move.routeId,
      data: { path: move.to },
      ...write,
    })
  }
  // An old path that another moved route now uses needs no redirect (it is served).
  const served = new Set(moves.map((m) => m.to))
  for (const move of moves) {
    if (served.has(move.from)) continue
    await payload.create({
      collection: 'routes' as CollectionSlug,
      data: { path: move.from, redirect: move.routeId },
      ...write,
    })
  }
  payload.logger.info({ route: route.id, moved: moves.length - 1 }, 'route children cascaded')
}
