/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyRouteRules } from './config.js'
import { routesExtension } from './extension.js'
import { installRouteCounts } from './counts.js'

export { routesExtension } from './extension.js'
export { applyRouteRules } from './config.js'
export { routesCollection } from './collection.js'
export { slugRouteGenerator, type RouteGenerator } from './generator.js'
export { nextGoLive, soonestGoLive } from './liveness.js'
export { announceRoutesGoneLive } from './goLive.js'

/** The routes collection itself is listed with the core collections (plugin.ts), in the contract's order. */
export const routesFeature: CwaFeature = {
  name: 'routes',
  completeCollection: applyRouteRules,
  extension: routesExtension,
  onSchemaReady: installRouteCounts,
}
