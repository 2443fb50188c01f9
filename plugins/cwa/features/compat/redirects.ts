import type { HydraContext } from '../../hydra/context.js'
import type { JsonLdObject } from '../../hydra/extension.js'

/**
 * `redirectedFrom` of `GET {route}/redirects` in the profile: the routes
 * redirecting to the route, embedded (`@id`, `@type`, `path`), each with its
 * own `redirectedFrom` (the routes redirecting to it), as the module's
 * redirects tree reads them and as the original bundle embeds them. Read
 * with the caller's access (a redirect the caller may not see is left out,
 * with what hangs below it), one query per level of redirect chains: a
 * rename leaves its redirect pointing at the route itself, so a chain is
 * rarely more than one level deep. A chain that loops (written around the
 * API's refusal) stops where a route repeats.
 */

const MAX_LEVELS = 64

interface RouteRow {
  id: string
  path: string
  redirect: string
}

async function redirectingTo(ctx: HydraContext, ids: string[]): Promise<RouteRow[]> {
  const found = await ctx.payload.find({
    collection: 'routes',
    where: { redirect: { in: ids } },
    depth: 0,
    pagination: false,
    sort: 'path',
    select: { path: true, redirect: true },
    overrideAccess: false,
    req: ctx.req,
  })
  return found.docs.map((doc) => {
    const row = doc as { id: unknown; path?: unknown; redirect?: unknown }
    return { id: String(row.id), path: String(row.path), redirect: String(row.redirect) }
  })
}

export async function redirectedFrom(ctx: HydraContext, routeId: string): Promise<JsonLdObject[]> {
  const seen = new Set([routeId])
  const byTarget = new Map<string, RouteRow[]>()
  let level = [routeId]
  for (let depth = 0; depth < MAX_LEVELS && level.length > 0; depth++) {
    const rows = (await redirectingTo(ctx, level)).filter((row) => !seen.has(row.id))
    for (const row of rows) {
      seen.add(row.id)
      byTarget.set(row.redirect, [...(byTarget.get(row.redirect) ?? []), row])
    }
    level = rows.map((row) => row.id)
  }
  const embed = (target: string): JsonLdObject[] =>
    (byTarget.get(target) ?? []).map((row) => ({
      '@id': ctx.registry.itemIri('routes', row.id),
      '@type': 'Route',
      path: row.path,
      redirectedFrom: embed(row.id),
    }))
  return embed(routeId)
}
