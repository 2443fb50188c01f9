import type { HydraContext } from '../../hydra/context'
import { relationCollection, relationId } from '../../core/utils/relations'

/** A site path names the page data its route points at (the caller's read access applies: a route it may not see names nothing). */
export async function pageDataOfPath(path: string, ctx: HydraContext): Promise<{ slug: string; id: string } | null> {
  const routes = await ctx.payload.find({
    collection: 'routes',
    where: { path: { equals: path } },
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: false,
    req: ctx.req,
  })
  const pageData = routes.docs[0]?.pageData
  const slug = relationCollection(pageData)
  const id = relationId(pageData)
  return slug && id ? { slug, id: String(id) } : null
}
