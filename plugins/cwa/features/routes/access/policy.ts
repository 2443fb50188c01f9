import type { PayloadRequest, Where } from 'payload'
import { getOptions } from '../../../core/registry.js'
import type { ResolvedCwaOptions } from '../../../core/options.js'
import { passes } from '../../../core/roles.js'
import { isRouteAdmin } from '../fields.js'
import { dependsOn } from '../../../core/utils/readDependencies.js'
import { ROUTE_REACH_TAG } from './dependencies.js'
import { failedRules, itemPattern, likePattern } from './rules.js'
import { key, locatedComponents, reachableComponents, reachRows, routeIdsOutsideRules } from './reachable.js'

/**
 * "Public access follows routes" (contract), decided in one place for every
 * read path: the JSON-LD API (item gate and collections), Payload's REST and
 * GraphQL APIs (collection read access) and the manifest. Decisions are
 * memoized on the request (`req.context`): a page of results costs the same
 * few queries as one item.
 */

export type GatedKind = 'page' | 'pageData' | 'component'

/** Matches nothing: Payload is never given an empty `in` list. */
const NONE = '00000000-0000-0000-0000-000000000000'
const idIn = (ids: Iterable<string>): Where => {
  const list = [...ids]
  return { id: { in: list.length > 0 ? list : [NONE] } }
}

/** A string key: Payload copies req.context by its string keys only. */
const MEMO = 'cwaRoutesAccess'
function memo(req: PayloadRequest): Map<string, Promise<unknown>> {
  const context = req.context as Record<string, Map<string, Promise<unknown>> | undefined>
  let map = context[MEMO]
  if (!map) {
    map = new Map()
    context[MEMO] = map
  }
  return map
}
function once<T>(req: PayloadRequest, name: string, load: () => Promise<T>): Promise<T> {
  const map = memo(req)
  if (!map.has(name)) map.set(name, load())
  return map.get(name) as Promise<T>
}

/** After a write in the same request, decisions are taken again from the new state. */
export function forgetAccessDecisions(req: PayloadRequest): void {
  memo(req).clear()
}

const optionsOf = (req: PayloadRequest): ResolvedCwaOptions => getOptions(req.payload.config)

/**
 * Whether pages, page data and components are all readable by this caller:
 * without routable_security, everyone; with it, callers passing it (and
 * route admins, who see and edit everything).
 */
export function seesAllContent(user: PayloadRequest['user'], options: ResolvedCwaOptions): boolean {
  if (options.routableSecurity === null) return true
  return passes(options.routableSecurity, user, options.roleHierarchy) || isRouteAdmin(user, options)
}

/** Creating a Page or PageData: routable_security must pass when it is set. */
export function mayCreateRoutable(user: PayloadRequest['user'], options: ResolvedCwaOptions): boolean {
  return options.routableSecurity === null || passes(options.routableSecurity, user, options.roleHierarchy)
}

interface PublicView {
  /** Records with their own live route (what collections list). */
  routed: Set<string>
  /** Records reachable from a live route: targets, every ancestor, templates of page data among them. */
  reachable: Set<string>
  pages: string[]
  pageData: Array<{ slug: string; id: string }>
}

/** What live routes make public for this caller (routes it is denied by a route_security rule count for nothing). */
function publicView(req: PayloadRequest): Promise<PublicView> {
  return once(req, 'view', async () => {
    const failing = failedRules(optionsOf(req), req.user).map(itemPattern)
    const rows = (await reachRows(req.payload, new Date(), req)).filter(
      (row) => !failing.some((rule) => rule.test(row.path)),
    )
    const routed = new Set<string>()
    const reachable = new Set<string>()
    for (const row of rows) {
      const id = String(row.id)
      if (row.depth === 0) routed.add(key(row.slug, id))
      reachable.add(key(row.slug, id))
      if (row.template_id) reachable.add(key('pages', String(row.template_id)))
    }
    const pages: string[] = []
    const pageData: Array<{ slug: string; id: string }> = []
    for (const entry of reachable) {
      const [slug, id] = entry.split(':') as [string, string]
      if (slug === 'pages') pages.push(id)
      else pageData.push({ slug, id })
    }
    return { routed, reachable, pages, pageData }
  })
}

function publicComponents(req: PayloadRequest): Promise<Set<string>> {
  return once(req, 'components', async () => {
    const view = await publicView(req)
    return reachableComponents(req.payload, view.pages, view.pageData, req)
  })
}

function located(req: PayloadRequest, slug: string): Promise<Set<string>> {
  return once(req, `located:${slug}`, () => locatedComponents(req.payload, slug, undefined, req))
}

/**
 * The routes a caller may read: route admins any, others those live now
 * (the stored effective go-live date, compared inside the read's own
 * query); route_security rules (LIKE over the whole path) filter everyone.
 */
export async function routeReadAccess(req: PayloadRequest): Promise<true | Where> {
  const options = optionsOf(req)
  const admin = isRouteAdmin(req.user, options)
  const live: Where = { effectiveLiveAt: { less_than_equal: new Date().toISOString() } }
  const likes = failedRules(options, req.user).map(likePattern)
  if (likes.length === 0) return admin ? true : live
  const allowed = idIn(await once(req, 'routes', () => routeIdsOutsideRules(req.payload, likes, req)))
  return admin ? allowed : { and: [live, allowed] }
}

/** Collection reads of pages, page data and components: only records with their own live route (components: reachable, or placed nowhere). */
export async function contentListAccess(req: PayloadRequest, slug: string, kind: GatedKind): Promise<true | Where> {
  if (seesAllContent(req.user, optionsOf(req))) return true
  dependsOn(ROUTE_REACH_TAG)
  if (kind !== 'component') {
    const { routed } = await publicView(req)
    return idIn([...routed].filter((k) => k.startsWith(`${slug}:`)).map((k) => k.slice(slug.length + 1)))
  }
  const reachable = [...(await publicComponents(req))]
    .filter((k) => k.startsWith(`${slug}:`))
    .map((k) => k.slice(slug.length + 1))
  const placed = [...(await located(req, slug))]
  return { or: [idIn(reachable), { id: { not_in: placed.length > 0 ? placed : [NONE] } }] }
}

/** One page, page data or component by id (the five component cases of the contract). */
export async function contentItemAllowed(
  req: PayloadRequest,
  slug: string,
  kind: GatedKind,
  id: string,
): Promise<boolean> {
  if (seesAllContent(req.user, optionsOf(req))) return true
  dependsOn(ROUTE_REACH_TAG)
  if (kind !== 'component') return (await publicView(req)).reachable.has(key(slug, id))
  if ((await publicComponents(req)).has(key(slug, id))) return true
  return (await locatedComponents(req.payload, slug, [id], req)).size === 0
}
