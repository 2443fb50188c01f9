import type { ResponseInfo } from '../../hydra/extension'
import { getOptions } from '../../core/registry'
import { nextGoLive } from './liveness'

/** Paths (under the API prefix) of route, page, page data and manifest reads. */
const CACHED = /^\/(_\/routes|_\/pages|_\/resource_manifest|page_data)(\/|$)/

/**
 * Caps `max-age` and `s-maxage` of a Cache-Control value at `limit` seconds
 * (never negative); other directives are kept.
 */
export function capCacheControl(value: string, limit: number): string {
  const cap = Math.max(0, Math.floor(limit))
  return value.replace(/\b(max-age|s-maxage)=(\d+)/gi, (_match, name: string, seconds: string) => `${name}=${Math.min(Number(seconds), cap)}`)
}

/**
 * Anonymous GETs of routes, pages, page data and the manifest (a
 * decorateResponse hook): sets `max-age` / `s-maxage` from the httpCache
 * option on a 200 without its own Cache-Control, and caps whatever max-age
 * the response carries at the soonest go-live date still to come, so no
 * cache serves a page past the moment a scheduled route goes live (nothing
 * runs at that moment).
 */
export async function anonymousCacheLifetime(response: ResponseInfo): Promise<void> {
  const { httpCache } = getOptions(response.payload.config)
  const configured = httpCache.maxAge !== null || httpCache.sharedMaxAge !== null
  if (!configured || (response.method !== 'GET' && response.method !== 'HEAD') || response.user || !CACHED.test(response.path)) return
  if (response.status === 200 && !response.headers.has('Cache-Control')) {
    const directives = ['public']
    if (httpCache.maxAge !== null) directives.push(`max-age=${httpCache.maxAge}`)
    if (httpCache.sharedMaxAge !== null) directives.push(`s-maxage=${httpCache.sharedMaxAge}`)
    response.headers.set('Cache-Control', directives.join(', '))
  }
  const current = response.headers.get('Cache-Control')
  if (current === null) return
  const now = new Date()
  const goLive = await nextGoLive(response.payload, undefined, now)
  if (goLive) response.headers.set('Cache-Control', capCacheControl(current, Math.ceil((goLive.getTime() - now.getTime()) / 1000)))
}
