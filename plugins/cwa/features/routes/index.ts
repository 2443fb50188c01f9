/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
export { routesExtension } from './extension'
export { applyRouteRules } from './config'
export { routesCollection } from './collection'
export { slugRouteGenerator, type RouteGenerator } from './generator'
