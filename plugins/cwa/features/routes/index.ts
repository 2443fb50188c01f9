import type { HydraExtension } from '../../hydra/extension'
import { mountRouteEndpoints } from './mount'
import { routesOpenApi } from './openapi'
import { decorateRoute, prepareRoutes } from './output'

/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
export const routesExtension: HydraExtension = {
  name: 'routes',
  async prepareItems(docs, resource, ctx) {
    if (resource.slug === 'routes') await prepareRoutes(docs, ctx)
  },
  normalizeItem(item, doc, resource, ctx) {
    if (resource.slug === 'routes') decorateRoute(item, doc, ctx)
  },
  mount: mountRouteEndpoints,
  openApi: routesOpenApi,
}
