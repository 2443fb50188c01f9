import type { ResponseInfo } from '../../hydra/extension.js'
import { getOptions } from '../../core/registry.js'
import { UNBOUND_READ_TAG } from '../../core/utils/readDependencies.js'
import { nextScheduledMoment } from './nextMoment.js'

/**
 * Paths (under the API prefix) of the cacheable reads: routes, pages, page
 * data, components, layouts, component groups and positions (items and
 * collections) and the resource manifest.
 */
export const CACHED_READS =
  /^\/(_\/routes|_\/pages|_\/layouts|_\/component_groups|_\/component_positions|_\/resource_manifest|page_data|component)(\/|$)/

/**
 * Caps `max-age` and `s-maxage` of a Cache-Control value at `limit` seconds
 * (never negative); other directives are kept.
 */
export function capCacheControl(value: string, limit: number): string {
  const cap = Math.max(0, Math.floor(limit))
  return value.replace(
    /\b(max-age|s-maxage)=(\d+)/gi,
    (_match, name: string, seconds: string) => `${name}=${Math.min(Number(seconds), cap)}`,
  )
}

/**
 * Anonymous GETs of those resources (a decorateResponse hook): sets
 * `max-age` / `s-maxage` from the httpCache option on a 200 without its own
 * Cache-Control, and caps whatever lifetime the response carries at the
 * soonest moment something scheduled takes effect (a route's liveAt, a
 * draft's publishedAt), so no cache serves a page past it. Signed-in
 * callers keep `private, no-store` (set by the pipeline).
 */
export async function anonymousCacheLifetime(response: ResponseInfo): Promise<void> {
  const { httpCache } = getOptions(response.payload.config)
  const configured = httpCache.maxAge !== null || httpCache.sharedMaxAge !== null
  if (
    !configured ||
    (response.method !== 'GET' && response.method !== 'HEAD') ||
    response.user ||
    !CACHED_READS.test(response.path)
  )
    return
  // Computed past an error a read survived (core/utils/readDependencies.ts): no purge would reach it once cached.
  if (response.dependencies?.includes(UNBOUND_READ_TAG)) {
    // eslint-disable-next-line no-restricted-syntax -- the anonymous reads' cache policy, in its hook
    response.headers.set('Cache-Control', 'private, no-store')
    return
  }
  if (response.status === 200 && !response.headers.has('Cache-Control')) {
    const directives = ['public']
    if (httpCache.maxAge !== null) directives.push(`max-age=${httpCache.maxAge}`)
    if (httpCache.sharedMaxAge !== null) directives.push(`s-maxage=${httpCache.sharedMaxAge}`)
    // eslint-disable-next-line no-restricted-syntax -- this hook is the anonymous reads' cache policy, run by the pipeline
    response.headers.set('Cache-Control', directives.join(', '))
  }
  const current = response.headers.get('Cache-Control')
  if (current === null) return
  const now = new Date()
  const soonest = await nextScheduledMoment(response.payload, now)
  if (soonest === null) return
  // eslint-disable-next-line no-restricted-syntax -- the cap of that policy, in the same hook
  response.headers.set('Cache-Control', capCacheControl(current, Math.ceil((soonest - now.getTime()) / 1000)))
}
