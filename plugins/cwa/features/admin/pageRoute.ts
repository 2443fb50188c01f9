import type { CollectionSlug, Where } from 'payload'
import type { Resource } from '../../core/registry.js'
import type { HydraContext } from '../../hydra/context.js'

/**
 * A page's (or page data's) route as the page builder shows it: the moment the page is public. The builder's
 * "Publish page" is that moment for a page whose route waits (docs/publishing.md, "One publishing moment per
 * page"): a route the admin panel generated for a page never published waits (its own go-live date empty) until
 * the page is published or scheduled, which gives the route its date in the same transaction as the blocks.
 */
export interface PageRoute {
  '@id': string
  id: string
  path: string
  /** The route's own go-live date (null: it waits, or was taken off line). */
  liveAt: string | null
  /** The date it is public from, ancestors' routes included (null: not public). */
  effectiveLiveAt: string | null
  /** Public now, public from a date to come, or not public. */
  state: 'live' | 'scheduled' | 'offline'
  /** Whether the page's publication is the route's go-live: its own date is empty or to come (routeWaits). */
  waits: boolean
}

type Doc = Record<string, unknown> & { id: string }
type RouteDoc = Doc & { path?: string; liveAt?: string | null; effectiveLiveAt?: string | null }

const ROUTES = 'routes' as CollectionSlug

/** Whether a date is set and not in the past. */
const ahead = (at: string | null | undefined, now: Date) => at == null || new Date(at) > now

/** The route serving a page or page data record, or null (a layout, a template page, a record without a route). */
export async function pageRouteOf(
  ctx: HydraContext,
  owner: { resource: Resource; doc: Doc },
): Promise<PageRoute | null> {
  const { slug, meta } = owner.resource
  if (slug !== 'pages' && meta.kind !== 'pageData') return null
  const where: Where =
    slug === 'pages'
      ? { page: { equals: owner.doc.id } }
      : { and: [{ 'pageData.value': { equals: owner.doc.id } }, { 'pageData.relationTo': { equals: slug } }] }
  const { docs } = await ctx.payload.find({
    collection: ROUTES,
    where,
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: true,
    req: ctx.req,
  })
  const route = docs[0] as RouteDoc | undefined
  if (!route) return null
  const now = new Date()
  const effective = route.effectiveLiveAt ?? null
  return {
    '@id': ctx.registry.itemIri(ROUTES, route.id),
    id: String(route.id),
    path: String(route.path ?? ''),
    liveAt: route.liveAt ?? null,
    effectiveLiveAt: effective,
    state: effective === null ? 'offline' : ahead(effective, now) ? 'scheduled' : 'live',
    waits: ahead(route.liveAt, now),
  }
}

/** Whether the page's publication is the route's go-live: it has a route, and its own date is empty or to come. */
export function routeWaits(route: PageRoute | null): route is PageRoute {
  return route !== null && route.waits
}

/**
 * Gives a route that is not live yet (its own date empty or to come) the page's publication moment `at`, as the
 * editor (the route's date is the publish permission's to write); a live route keeps its date. In the caller's
 * transaction. Answers whether the route's date changed.
 */
export async function routeGoesLiveWithPage(ctx: HydraContext, route: PageRoute | null, at: Date): Promise<boolean> {
  if (!routeWaits(route)) return false
  if (route.liveAt !== null && new Date(route.liveAt).getTime() === at.getTime()) return false
  await ctx.payload.update({
    collection: ROUTES,
    id: route.id,
    data: { liveAt: at.toISOString() },
    depth: 0,
    overrideAccess: false,
    req: ctx.req,
  })
  return true
}
