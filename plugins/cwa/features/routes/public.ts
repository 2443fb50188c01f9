/** The routes feature's share of the package's front door (index.ts re-exports it). */
export { type RouteGenerator, slugRouteGenerator } from './generator.js'
// Its options (added to CwaPluginOptions by declaration merging), so an app type-checks them.
export type {} from './options.js'
