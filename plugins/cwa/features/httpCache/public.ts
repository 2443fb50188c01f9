/** The HTTP cache's share of the package's front door (index.ts re-exports it). */
export { PurgeFailed, purgeHttpCache, purgeRenderedHtml } from './purger.js'
// Its options (added to CwaPluginOptions by declaration merging), so an app type-checks them.
export type {} from './options.js'
