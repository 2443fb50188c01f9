/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
import type { CwaFeature } from '../../hydra/feature'
import { applyRouteRules } from './config'
import { routesExtension } from './extension'
import { installRouteCounts } from './counts'

export { routesExtension } from './extension'
export { applyRouteRules } from './config'
export { routesCollection } from './collection'
export { slugRouteGenerator, type RouteGenerator } from './generator'
export { nextGoLive, soonestGoLive } from './liveness'
export { announceRoutesGoneLive } from './goLive'

/** The routes collection itself is listed with the core collections (plugin.ts), in the contract's order. */
export const routesFeature: CwaFeature = {
  name: 'routes',
  completeCollection: applyRouteRules,
  extension: routesExtension,
  onSchemaReady: installRouteCounts,
}
