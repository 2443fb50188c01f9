import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Options of the HTTP cache feature, declared once (core/defineOptions.ts):
 * the lifetime of anonymous reads, the cache tags header, and the purger
 * that invalidates a shared cache (Varnish) after each write. The reference
 * deployment maps CACHE_PURGER and VARNISH_URL.
 */
export type PurgerName = 'none' | 'varnish'

const seconds = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null)
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

export const httpCacheOptions = defineOptions(
  {
    httpCache: group(
      'HTTP caching of anonymous reads and shared cache invalidation ([HTTP cache](http-cache.md)). Default: no lifetime, no purger.',
      {
        maxAge: option.number<number | null>({
          default: null,
          doc: '`max-age` (seconds) of anonymous GET responses of resources; unset: no max-age sent.',
          resolve: (given) => seconds(given),
        }),
        sharedMaxAge: option.number<number | null>({
          default: null,
          doc: '`s-maxage` (seconds) for shared caches (CDN, Varnish).',
          resolve: (given) => seconds(given),
        }),
        purger: option<PurgerName>({
          type: "'none' | 'varnish'",
          default: 'none',
          doc: 'Who invalidates the shared cache after writes (CACHE_PURGER).',
          resolve: (given, fallback) => {
            const purger = text(given) ?? fallback
            if (purger !== 'none' && purger !== 'varnish')
              throw new Error(
                `cwa options: httpCache.purger must be none or varnish (CACHE_PURGER), got ${JSON.stringify(purger)}`,
              )
            return purger
          },
        }),
        varnishUrl: option<string | null>({
          type: 'string | null',
          default: null,
          doc: "Where the Varnish purge requests go (VARNISH_URL), with `purger: 'varnish'` (required then).",
          resolve: (given) => text(given),
        }),
        tagHeader: option.string({
          default: 'xkey',
          doc: "The response header listing the IRIs a response contains (what Varnish's xkey vmod reads); empty: none.",
          resolve: (given, fallback) => (given === undefined ? fallback : (text(given) ?? '')),
        }),
        renderedHtmlTag: option.string({
          default: 'cwa-html',
          doc: 'The tag the front end gives cached rendered HTML pages.',
          resolve: (given, fallback) => text(given) ?? fallback,
        }),
        purgeTimeout: option.number({
          default: 5000,
          doc: 'Time allowed for one purge request, in ms.',
          resolve: (given, fallback) => seconds(given) ?? fallback,
        }),
      },
    ),
  },
  // Checks across the options (the varnish purger needs its URL), then the tag header's, as before.
  ({ httpCache }, given) => {
    const { purger, varnishUrl, tagHeader } = httpCache
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
    if (tagHeader !== '' && !TOKEN.test(tagHeader))
      throw new Error(
        `cwa options: httpCache.tagHeader must be a header name, got ${JSON.stringify(given.httpCache?.tagHeader)}`,
      )
    return { httpCache: { ...httpCache, varnishUrl: purger === 'varnish' ? varnishUrl : null } }
  },
)

export type ResolvedHttpCache = OptionsResolved<typeof httpCacheOptions>['httpCache']

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof httpCacheOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof httpCacheOptions> {}
}
