import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions } from '../../core/options.js'

/**
 * Options of the admin panel's editor views: where the site's front end
 * lives, for "View on site" and Payload's Live Preview.
 */

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /**
     * The front end's origin (and base path), e.g. `https://www.example.com`:
     * pages, page data and routes get a "View on site" link to
     * `<frontEndUrl><route path>`, and Payload's Live Preview shows that URL.
     * Default unset: no link, no Live Preview.
     */
    frontEndUrl?: string | null
  }
  interface ResolvedCwaOptions {
    frontEndUrl: string | null
  }
}

export const adminOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'frontEndUrl'>> = { frontEndUrl: true }

export function resolveAdminOptions(options: CwaPluginOptions): { frontEndUrl: string | null } {
  const value = options.frontEndUrl
  if (value === undefined || value === null || value === '') return { frontEndUrl: null }
  let url: URL
  try {
    if (typeof value !== 'string') throw new Error('not a string')
    url = new URL(value)
  } catch {
    throw new Error(
      `cwa options: frontEndUrl must be an absolute http(s) URL (e.g. "https://www.example.com"), got ${JSON.stringify(value)}`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`cwa options: frontEndUrl must be an http(s) URL, got ${JSON.stringify(value)}`)
  }
  // A route path starts with "/": the base keeps no trailing slash.
  return { frontEndUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}` }
}

/** The front end's URL of a route path (null without the option or a path). */
export function siteUrl(frontEndUrl: string | null, path: unknown): string | null {
  if (!frontEndUrl || typeof path !== 'string' || !path.startsWith('/')) return null
  return `${frontEndUrl}${path}`
}
