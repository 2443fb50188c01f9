import type { HydraExtension } from '../../src/hydra/extension'
import { mountRouteEndpoints } from './mount'

/**
 * Routes: go-live dates (liveAt, inherited through parent pages), public
 * access that follows live routes, generation, redirects, the resource
 * manifest and the sitemap.
 */
export const routesExtension: HydraExtension = {
  name: 'routes',
  mount: mountRouteEndpoints,
}
