import type { HydraContext } from '../../../hydra/context.js'
import { notFound } from '../../../hydra/errors.js'
import { getItem } from '../../../hydra/operations.js'
import { accessDenied } from '../../../hydra/security.js'
import { isUuid, type Resource } from '../../../core/registry.js'
import { internalFind } from '../../../core/utils/internalFind.js'
import { grantItem } from '../config.js'
import { contentItemAllowed, type GatedKind } from './policy.js'
import { failedRules, routeRulesAllow } from './rules.js'

const kindOf = (resource: Resource): GatedKind | null =>
  resource.slug === 'pages'
    ? 'page'
    : resource.meta.kind === 'pageData'
      ? 'pageData'
      : resource.meta.kind === 'component'
        ? 'component'
        : null

async function exists(ctx: HydraContext, slug: string, id: string): Promise<boolean> {
  return (
    (
      await internalFind(ctx.payload, {
        collection: slug,
        where: { id: { equals: id } },
        select: {},
        limit: 1,
        req: ctx.req,
      })
    ).length > 0
  )
}

/**
 * The item gate of the JSON-LD API (a beforeItemRead hook): GET of one
 * page, page data record or component answers 401/403 when public access
 * does not follow to it (contract: "Public access follows routes"), before
 * the generic item operation serves it.
 */
export async function gateContentItem(resource: Resource, rawId: string, ctx: HydraContext): Promise<void> {
  const kind = kindOf(resource)
  if (!kind || !isUuid(rawId)) return
  const id = rawId.toLowerCase()
  if (!(await contentItemAllowed(ctx.req, resource.slug, kind, id))) {
    throw (await exists(ctx, resource.slug, id)) ? accessDenied(ctx) : notFound()
  }
  grantItem(ctx.req, resource.slug, id)
}

/**
 * A route by id answers as the lookup by path does: 401/403 when a
 * route_security rule denies it, 404 when it is not live (the read access
 * leaves it out).
 */
export async function getRouteById(routes: Resource, rawId: string, ctx: HydraContext) {
  const id = rawId.toLowerCase()
  // The regex rules reach further than the collection's LIKE: checked on the path first (only when one fails for this caller).
  if (failedRules(ctx.options, ctx.user).length > 0) {
    const [route] = await internalFind(ctx.payload, {
      collection: 'routes',
      where: { id: { equals: id } },
      select: { path: true },
      limit: 1,
      req: ctx.req,
    })
    if (route && !routeRulesAllow(ctx.options, ctx.user, String(route.path))) throw accessDenied(ctx)
  }
  return getItem(routes, id, ctx)
}
