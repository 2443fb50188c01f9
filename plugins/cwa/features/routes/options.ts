/**
 * HTTP caching of anonymous reads of routes, pages, page data and the
 * resource manifest. Unset: no max-age is sent (the default).
 */
export interface HttpCacheOptions {
  /** `max-age` (seconds) of anonymous GET responses of those resources. */
  maxAge?: number
  /** `s-maxage` (seconds) for shared caches (CDN, Varnish). */
  sharedMaxAge?: number
}

export interface ResolvedHttpCache {
  maxAge: number | null
  sharedMaxAge: number | null
}

const seconds = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null

export function resolveHttpCache(options: HttpCacheOptions | undefined): ResolvedHttpCache {
  return { maxAge: seconds(options?.maxAge), sharedMaxAge: seconds(options?.sharedMaxAge) }
}
