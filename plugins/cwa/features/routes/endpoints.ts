import { ROLE_ADMIN } from '../../core/options.js'
import { type Endpoint, withInput } from '../../hydra/endpoint.js'
import { isUuid, type ResourceRegistry } from '../../core/registry.js'
import { getRouteById } from './access/gate.js'
import { routeChildren } from './handlers/children.js'
import { generateRoute } from './handlers/generate.js'
import { getRouteByPath } from './handlers/getByPath.js'
import { patchRouteByPath } from './handlers/patchByPath.js'
import { resourceManifest } from './manifest/endpoint.js'
import { generateRouteInput } from './inputs.js'
import { routeDocs, routeParameter } from './openapi.js'
import { mayWriteRoutes } from './structure/access.js'
import { sitemapXml } from './sitemap.js'

/**
 * `{route_path}` as sent: `/_/routes//blog` (the path's own slash), or
 * URL-encoded `/_/routes/%2Fblog`.
 */
export function routeParam(raw: string): string {
  let value = raw
  try {
    value = decodeURIComponent(raw)
  } catch {
    // left as sent: no route has a malformed escape in its path
  }
  return value
}

/**
 * The route endpoints of the contract. A route's item path takes a UUID or
 * a path (`/_/routes//blog`), so its GET and PATCH supersede the generic
 * item operations; DELETE stays generic (by UUID).
 */
export function routeEndpoints(registry: ResourceRegistry): Endpoint[] {
  const routes = registry.bySlug('routes')
  if (!routes) return []
  const base = `${routes.meta.pathPrefix}/${routes.meta.segment}`
  // A UUID or a path (the generic DELETE, by UUID, documents its own `{id}`).
  const route = { route: routeParameter(routes) }
  return [
    {
      method: 'GET',
      path: `${base}/{route+}`,
      supersedes: `${base}/{id}`,
      handler: (ctx, { params }) => {
        const route = routeParam(params.route!)
        return isUuid(route) ? getRouteById(routes, route, ctx) : getRouteByPath(ctx, route)
      },
      paramDocs: route,
      docs: routeDocs.get(routes),
    },
    {
      method: 'PATCH',
      path: `${base}/{route+}`,
      supersedes: `${base}/{id}`,
      // By path or id: cascadeChildPaths is a write flag of every route PATCH.
      handler: (ctx, { params, body }) => patchRouteByPath(ctx, routeParam(params.route!), body),
      paramDocs: route,
      docs: routeDocs.patch(routes),
    },
    withInput({
      method: 'POST',
      path: `${base}/generate`,
      // Before the body is checked: a caller without the right learns nothing from it.
      security: mayWriteRoutes('create'),
      input: generateRouteInput,
      handler: (ctx, { body }) => generateRoute(ctx, body),
      docs: routeDocs.generate(routes),
    }),
    {
      method: 'GET',
      path: `${base}/{route+}/children`,
      security: { role: ROLE_ADMIN },
      cache: 'no-store',
      handler: (ctx, { params }) => routeChildren(ctx, routeParam(params.route!)),
      paramDocs: route,
      docs: routeDocs.children(routes),
    },
    {
      method: 'GET',
      path: '/_/resource_manifest/{route+}',
      handler: (ctx, { params }) => resourceManifest(ctx, routeParam(params.route!)),
      paramDocs: route,
      docs: routeDocs.manifest(routes),
    },
    {
      method: 'GET',
      path: '/sitemap.xml',
      root: true,
      handler: (ctx, { url }) => sitemapXml(ctx, url),
      docs: { undocumented: 'served at the site root, outside the API' },
    },
  ]
}
