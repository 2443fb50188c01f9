import { defineOptions, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Options of the admin panel's editor views: where the site's front end
 * lives, for "View on site" and Payload's Live Preview. Declared once
 * (core/defineOptions.ts).
 */

export const adminOptions = defineOptions({
  frontEndUrl: option<string | null>({
    type: 'string | null',
    default: null,
    doc:
      "The front end's origin (and base path), e.g. `https://www.example.com`, or `/` for this site's own origin (a " +
      'front end served by the same server, links kept relative): pages, page data and routes get a ' +
      '"View on site" link to `<frontEndUrl><route path>`, and Payload\'s Live Preview shows that URL. Unset: no ' +
      'link, no Live Preview ([admin panel](admin.md#the-front-end-view-on-site-and-live-preview)).',
    resolve: (value) => {
      if (value === undefined || value === null || value === '') return null
      // The site's own origin, whichever the admin panel is reached on: links and Live Preview stay relative.
      if (value === '/') return ''
      let url: URL
      try {
        if (typeof value !== 'string') throw new Error('not a string')
        url = new URL(value)
      } catch {
        throw new Error(
          `cwa options: frontEndUrl must be an absolute http(s) URL (e.g. "https://www.example.com") or "/", got ${JSON.stringify(value)}`,
        )
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new Error(`cwa options: frontEndUrl must be an http(s) URL, got ${JSON.stringify(value)}`)
      }
      // A route path starts with "/": the base keeps no trailing slash.
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
    },
  }),
  previewPath: option<string | null>({
    type: 'string | null',
    default: null,
    doc:
      "The front end's preview route, with `frontEndUrl` (e.g. `/_preview`): Live Preview opens " +
      '`<frontEndUrl><previewPath>?path=<route path>&token=…`, a link that lives one minute, which the route exchanges ' +
      "(`POST {prefix}/_/preview`) for a token reading drafts with the editor's rights ([front ends](front-ends.md#previews-of-drafts)). " +
      'Unset: Live Preview opens the page itself, and the exchange endpoint does not exist.',
    resolve: (value) => {
      if (value === undefined || value === null || value === '') return null
      if (typeof value !== 'string' || !/^\/[^/?#\s]*(\/[^/?#\s]+)*$/.test(value))
        throw new Error(`cwa options: previewPath must be a path such as "/_preview", got ${JSON.stringify(value)}`)
      return value
    },
  }),
})

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof adminOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof adminOptions> {}
}

/** The admin feature's options resolved (its test calls it alone). */
export const resolveAdminOptions = (options: object) => adminOptions.resolve(options)

/** The front end's URL of a route path (null without the option or a path). */
export function siteUrl(frontEndUrl: string | null, path: unknown): string | null {
  if (frontEndUrl === null || typeof path !== 'string' || !path.startsWith('/')) return null
  return `${frontEndUrl}${path}`
}
