/** Routes as a tree by path: `/blog/first` under `/blog`, under `/` (a parent missing from the routes is shown as a bare segment). */
import type { TypeIconName } from '../../../core/admin/typeIcons.js'

export type RouteState = 'live' | 'scheduled' | 'not-live' | 'redirect'

export interface RouteRecord {
  id: string
  path: string
  state: RouteState
  /** The effective go-live date (its own or inherited), when the reader may see it. */
  liveAt: string | null
  /** The page or page data it shows. */
  target: {
    slug: string
    id: string
    title: string
    type: string
    icon: TypeIconName
    publication: 'draft' | 'scheduled' | 'published' | null
  } | null
  redirect: { id: string; path: string } | null
}

export interface RouteNode {
  segment: string
  path: string
  route: RouteRecord | null
  children: RouteNode[]
}

/**
 * A route's state for the tree: a redirect; else by its effective go-live
 * date (live when past, scheduled when future, not live when empty). A
 * reader who may not see the date reads only live routes, so no date means
 * live for them.
 */
export function routeState(doc: Record<string, unknown>, now = new Date()): RouteState {
  if (doc.redirect) return 'redirect'
  if (!('effectiveLiveAt' in doc)) return 'live'
  const at = doc.effectiveLiveAt ? new Date(doc.effectiveLiveAt as string) : null
  if (!at) return 'not-live'
  return at > now ? 'scheduled' : 'live'
}

export function routeTree(routes: RouteRecord[]): RouteNode {
  const root: RouteNode = { segment: '/', path: '/', route: null, children: [] }
  for (const route of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    const segments = route.path.split('/').filter(Boolean)
    let node = root
    let path = ''
    for (const segment of segments) {
      path += `/${segment}`
      let child = node.children.find((c) => c.segment === segment)
      if (!child) node.children.push((child = { segment, path, route: null, children: [] }))
      node = child
    }
    node.route = route
  }
  return root
}
