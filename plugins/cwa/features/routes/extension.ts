import type { HydraExtension } from '../../hydra/extension.js'
import { gateContentItem } from './access/gate.js'
import { routeEndpoints } from './endpoints.js'
import { amendRouteDocs } from './openapi.js'
import { decorateRoute, prepareRoutes } from './output.js'
import { pageDataOfPath } from './routeByPath.js'
import { routesStore } from './counts.js'

/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
export const routesExtension: HydraExtension = {
  name: 'routes',
  endpoints: routeEndpoints,
  beforeItemRead: gateContentItem,
  resolvePath: pageDataOfPath,
  store: (resource, ctx, fallback) => (resource.slug === 'routes' ? routesStore(ctx, fallback) : undefined),
  async prepareItems(docs, resource, ctx) {
    if (resource.slug === 'routes') await prepareRoutes(docs, ctx)
  },
  normalizeItem(item, doc, resource, ctx) {
    if (resource.slug === 'routes') decorateRoute(item, doc, ctx)
  },
  openApi: amendRouteDocs,
}
