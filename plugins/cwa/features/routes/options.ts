import { defineOptions, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'
import type { SecurityExpression } from '../../core/options.js'
import { type RouteGenerator, slugRouteGenerator } from './generator.js'

/**
 * Options of the routes feature (route security, the route generator),
 * declared once (core/defineOptions.ts). The HTTP cache options are the
 * httpCache feature's.
 */

/** A path pattern (`*` matches anything) and who may read routes under it. */
export interface RouteSecurityRule {
  route: string
  security: SecurityExpression
}

export const routesOptions = defineOptions({
  routeSecurity: option<RouteSecurityRule[]>({
    type: 'Array<{ route: string; security: SecurityExpression }>',
    default: [],
    doc: 'Who may read routes whose path matches a pattern (contract: route_security; [routes](routes.md#route_security)).',
    resolve: (given) => given ?? [],
  }),
  routableSecurity: option<SecurityExpression | null>({
    type: 'SecurityExpression | null',
    default: null,
    doc:
      'Who may create pages and page data and read all content beyond what routes make reachable (contract: ' +
      'routable_security; [routes](routes.md#routable_security-public-access-follows-routes)). Unset: everyone.',
  }),
  routeGenerator: option<RouteGenerator>({
    type: 'RouteGenerator',
    default: slugRouteGenerator,
    defaultText: 'parent route path + title slug (slugRouteGenerator)',
    doc: 'Builds the path of POST /_/routes/generate ([routes](routes.md#generating-a-route--post-_routesgenerate-admins)).',
  }),
})

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof routesOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof routesOptions> {}
}
