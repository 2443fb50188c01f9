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
        revalidateUrl: option<string | null>({
          type: 'string | null',
          default: null,
          doc:
            "A front end's revalidation route (CWA_REVALIDATE_URL), e.g. `https://www.example.com/_cwa/revalidate`: after " +
            'each write, the same tags as a purge are POSTed to it, signed with `revalidateSecret`, and a Next.js app ' +
            'with `createCwaRevalidateRoute` drops its cached pages holding them ([front ends](front-ends.md#nextjs-payload-cwanext)).',
          resolve: (given) => text(given),
        }),
        revalidateSecret: option<string | null>({
          type: 'string | null',
          default: null,
          doc: 'The HMAC secret (CWA_REVALIDATE_SECRET, 32 characters at least) signing the revalidation requests; required with `revalidateUrl`.',
          resolve: (given) => text(given),
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
    const { purger, varnishUrl, tagHeader, revalidateUrl, revalidateSecret } = httpCache
    checkRevalidation(revalidateUrl, revalidateSecret)
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

/** The revalidation route needs its secret, and an http(s) URL. */
function checkRevalidation(url: string | null, secret: string | null): void {
  if (!url) return
  let parsed: URL | null = null
  try {
    parsed = new URL(url)
  } catch {
    // refused below
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new Error(
      `cwa options: httpCache.revalidateUrl (CWA_REVALIDATE_URL) must be an absolute http(s) URL, got ${JSON.stringify(url)}`,
    )
  if (!secret || secret.length < 32)
    throw new Error(
      'cwa options: httpCache.revalidateSecret (CWA_REVALIDATE_SECRET) of 32 characters at least is required with httpCache.revalidateUrl',
    )
}

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof httpCacheOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof httpCacheOptions> {}
}
