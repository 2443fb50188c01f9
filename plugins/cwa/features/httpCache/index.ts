/**
 * The HTTP cache: lifetimes of anonymous reads (capped at the next scheduled
 * go-live or publication), cache tags on every read, and the purger that
 * invalidates a shared cache (Varnish) after each committed write (a
 * subscriber of the write-event bus), with the admin purge endpoints
 * ([HTTP cache](../../../../docs/http-cache.md)).
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { httpCacheExtension } from './extension.js'
import { purgeChanged } from './invalidation.js'
import { httpCacheOptions } from './options.js'
import { commands } from './commands/index.js'

export { assertServerUrlForSharedCache } from './config.js'
export type { PurgerName } from './options.js'
export { purgerOf, type Purger } from './purger.js'
export { capCacheControl } from './lifetime.js'
export { containersOf } from './containers.js'
export { tagsOfEvents } from './invalidation.js'
export { CACHED_READS } from './lifetime.js'

export const httpCacheFeature = {
  name: 'httpCache',
  options: httpCacheOptions,
  extension: httpCacheExtension,
  onWrite: purgeChanged,
  commands,
} satisfies CwaFeature
