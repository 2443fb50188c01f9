import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../../core/options.js'

/**
 * Options of the HTTP cache feature: the lifetime of anonymous reads, the
 * cache tags header, and the purger that invalidates a shared cache
 * (Varnish) after each write. Every default is here. The reference
 * deployment maps CACHE_PURGER and VARNISH_URL.
 */
export type PurgerName = 'none' | 'varnish'

export interface HttpCacheOptions {
  /** `max-age` (seconds) of anonymous GET responses of resources. Default none (no max-age sent). */
  maxAge?: number
  /** `s-maxage` (seconds) for shared caches (CDN, Varnish). Default none. */
  sharedMaxAge?: number
  /** Who invalidates the shared cache after writes: `none` (default) or `varnish`. */
  purger?: PurgerName
  /** Where the Varnish purge requests go (VARNISH_URL), with `purger: 'varnish'`. */
  varnishUrl?: string | null
  /** The response header listing the IRIs a response contains (default `xkey`, what Varnish's xkey vmod reads); empty: none. */
  tagHeader?: string
  /** The tag the front end gives cached rendered HTML pages (default `cwa-html`). */
  renderedHtmlTag?: string
  /** Time allowed for one purge request, in ms (default 5000). */
  purgeTimeout?: number
}

export interface ResolvedHttpCache {
  maxAge: number | null
  sharedMaxAge: number | null
  purger: PurgerName
  varnishUrl: string | null
  tagHeader: string
  renderedHtmlTag: string
  purgeTimeout: number
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /** HTTP caching of anonymous reads and shared cache invalidation ([HTTP cache](docs/http-cache.md)). Default: no lifetime, no purger. */
    httpCache?: HttpCacheOptions
  }
  interface ResolvedCwaOptions {
    httpCache: ResolvedHttpCache
  }
}

export const httpCacheOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'httpCache'>> = {
  httpCache: {
    maxAge: true,
    sharedMaxAge: true,
    purger: true,
    varnishUrl: true,
    tagHeader: true,
    renderedHtmlTag: true,
    purgeTimeout: true,
  },
}

const seconds = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

export function resolveHttpCache(options: HttpCacheOptions | undefined): ResolvedHttpCache {
  const purger = text(options?.purger) ?? 'none'
  if (purger !== 'none' && purger !== 'varnish')
    throw new Error(
      `cwa options: httpCache.purger must be none or varnish (CACHE_PURGER), got ${JSON.stringify(purger)}`,
    )
  const varnishUrl = text(options?.varnishUrl)
  if (purger === 'varnish') {
    if (!varnishUrl)
      throw new Error(
        'cwa options: httpCache.varnishUrl (VARNISH_URL) is required with the varnish purger (CACHE_PURGER=varnish)',
      )
    try {
      new URL(varnishUrl)
    } catch {
      throw new Error(
        `cwa options: httpCache.varnishUrl (VARNISH_URL) must be an absolute URL, got ${JSON.stringify(varnishUrl)}`,
      )
    }
  }
  const tagHeader = options?.tagHeader === undefined ? 'xkey' : (text(options.tagHeader) ?? '')
  if (tagHeader !== '' && !TOKEN.test(tagHeader))
    throw new Error(`cwa options: httpCache.tagHeader must be a header name, got ${JSON.stringify(options?.tagHeader)}`)
  return {
    maxAge: seconds(options?.maxAge),
    sharedMaxAge: seconds(options?.sharedMaxAge),
    purger,
    varnishUrl: purger === 'varnish' ? varnishUrl : null,
    tagHeader,
    renderedHtmlTag: text(options?.renderedHtmlTag) ?? 'cwa-html',
    purgeTimeout: seconds(options?.purgeTimeout) ?? 5000,
  }
}

export function resolveHttpCacheOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'httpCache'> {
  return { httpCache: resolveHttpCache(options.httpCache) }
}
