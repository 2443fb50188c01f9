/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyRouteRules, routeTreeView } from './config.js'
import { routesExtension } from './extension.js'
import { installRouteCounts } from './counts.js'
import { routesOptions } from './options.js'
import { installRouteTargetIndexes } from './targetIndexes.js'

export { routesExtension } from './extension.js'
export { applyRouteRules } from './config.js'
export { routesCollection } from './collection.js'
export { nextGoLive, soonestGoLive } from './liveness.js'
export { announceRoutesGoneLive } from './goLive.js'
export { reachTagsOf } from './access/dependencies.js'
export { routePathTagsOf } from './pathTags.js'
export { containerIrisSql, containerRootsOf } from './structure/containers.js'

/** The routes collection itself is listed with the core collections (plugin.ts), in the contract's order. */
export const routesFeature = {
  name: 'routes',
  // Its read rules wrap the access publishable narrowed (config.ts: composed with what is already there).
  after: ['publishable'],
  options: routesOptions,
  completeCollection: applyRouteRules,
  extension: routesExtension,
  adminComponents: routeTreeView,
  // The plugin's own SQL, installed where a database lacks it: the routes' row counts and the route-target indexes.
  onSchemaReady: async (payload) => {
    await installRouteCounts(payload)
    await installRouteTargetIndexes(payload)
  },
} satisfies CwaFeature
export { findRouteByPath } from './routeByPath.js'
