import type { Config } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'

/**
 * With a shared cache in front (a purger configured), absolute URLs in
 * responses must come from the configured public origin (SERVER_URL,
 * Payload's serverURL), never from the Host header: a client choosing its
 * Host would otherwise store links to its own site in everyone's cache.
 * The start stops with an error naming the variable.
 */
export function assertServerUrlForSharedCache(config: Pick<Config, 'serverURL'>, options: ResolvedCwaOptions): void {
  if (options.httpCache.purger === 'none' || (config.serverURL ?? '').trim() !== '') return
  throw new Error(
    `SERVER_URL must be set when a shared HTTP cache is configured (CACHE_PURGER=${options.httpCache.purger}): ` +
      "absolute URLs in cached responses cannot come from the request's Host header. Set SERVER_URL (Payload's serverURL) to the site's public origin.",
  )
}
