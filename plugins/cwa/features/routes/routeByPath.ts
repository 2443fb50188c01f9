import type { HydraContext } from '../../hydra/context.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import { dependsOn } from '../../core/utils/readDependencies.js'
import { ROUTE_PATHS_TAG, routePathTag } from './pathTags.js'

/** The route at a path as the caller may see it (read access applies: a route it may not see is none), or undefined. */
export async function findRouteByPath(ctx: HydraContext, path: string): Promise<Record<string, unknown> | undefined> {
  const found = await ctx.payload.find({
    collection: 'routes',
    where: { path: { equals: path } },
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: false,
    req: ctx.req,
  })
  return found.docs[0]
}

/**
 * A site path names the page data its route points at (the `path` header of dynamic positions). The answer
 * depends on which route holds the path, which its body does not show: a stored answer is dropped when that
 * changes (pathTags.ts). (A route read by its path needs no such tag: its body names the route.)
 */
export async function pageDataOfPath(path: string, ctx: HydraContext): Promise<{ slug: string; id: string } | null> {
  dependsOn(routePathTag(path))
  dependsOn(ROUTE_PATHS_TAG)
  const pageData = (await findRouteByPath(ctx, path))?.pageData
  const slug = relationCollection(pageData)
  const id = relationId(pageData)
  return slug && id ? { slug, id: String(id) } : null
}
