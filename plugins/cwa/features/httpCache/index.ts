/**
 * The HTTP cache: lifetimes of anonymous reads (capped at the next scheduled
 * go-live or publication), cache tags on every read, and the purger that
 * invalidates a shared cache (Varnish) after each committed write (a
 * subscriber of the write-event bus), with the admin purge endpoints
 * ([HTTP cache](../../../../docs/http-cache.md)).
 */
import type { CwaFeature } from '../../hydra/feature'
import { httpCacheExtension } from './extension'
import { purgeChanged } from './invalidation'

export { assertServerUrlForSharedCache } from './config'
export type { HttpCacheOptions, PurgerName, ResolvedHttpCache } from './options'
export { PurgeFailed, purgeHttpCache, purgeRenderedHtml, purgerOf, type Purger } from './purger'
export { capCacheControl } from './lifetime'
export { cacheTagsOf } from './tags'

export const httpCacheFeature: CwaFeature = {
  name: 'httpCache',
  extension: httpCacheExtension,
  onWrite: purgeChanged,
}
