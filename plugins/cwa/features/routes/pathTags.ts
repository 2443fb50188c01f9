import type { WriteEvent } from '../../core/events/index.js'

/**
 * What a read that resolved a site path to a route depends on (the `path`
 * request header of dynamic positions, a route read by its path): which
 * route answers that path, and what it points at. Neither shows in the
 * answer's body (a position shows the component, not the route), so the
 * resolution notes the path's tag (routeByPath.ts), and every write to a
 * route drops the tags of its path before and after: a route moved,
 * deleted, created at the path, given another target or go-live.
 */
const ROUTE_PATH_TAG = 'cwa:route-path:'

/**
 * Dropped by a route change whose paths are not known (a go-live date
 * recomputed in SQL, an update without its state before): every path
 * resolution carries it besides its own path's tag.
 */
export const ROUTE_PATHS_TAG = 'cwa:routes:paths'

/** The tag of a site path's resolution to a route (encoded: a tag header lists tags separated by spaces). */
export const routePathTag = (path: string): string => `${ROUTE_PATH_TAG}${encodeURIComponent(path)}`

/** The tags of the paths the route events changed (before and after), for a store of answers to drop. */
export function routePathTagsOf(events: readonly WriteEvent[]): string[] {
  const tags = new Set<string>()
  for (const event of events) {
    if (event.collection !== 'routes') continue
    const paths = [event.doc?.path, event.previousDoc?.path].filter((path) => typeof path === 'string')
    for (const path of paths) tags.add(routePathTag(path))
    // Which paths changed cannot be told: every resolution is dropped.
    if (!event.doc || (event.type === 'update' && !event.previousDoc)) tags.add(ROUTE_PATHS_TAG)
  }
  return [...tags]
}
