import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from '../../core/options.js'
import { type RouteGenerator, slugRouteGenerator } from './generator.js'

/**
 * Options of the routes feature (route security, the route generator), with
 * every default here. The HTTP cache options are the httpCache feature's.
 */

/** A path pattern (`*` matches anything) and who may read routes under it. */
export interface RouteSecurityRule {
  route: string
  security: SecurityExpression
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /** Who may read routes whose path matches a pattern (contract: route_security). Default none. */
    routeSecurity?: RouteSecurityRule[]
    /** Who may create pages and page data and read all content beyond what routes make reachable (contract: routable_security). Default unset: everyone. */
    routableSecurity?: SecurityExpression | null
    /** Builds the path of POST /_/routes/generate. Default: parent route path + title slug. */
    routeGenerator?: RouteGenerator
  }
  interface ResolvedCwaOptions {
    routeSecurity: RouteSecurityRule[]
    routableSecurity: SecurityExpression | null
    routeGenerator: RouteGenerator
  }
}

type RoutesKey = 'routeSecurity' | 'routableSecurity' | 'routeGenerator'

/** Keys of the routes feature (routeSecurity is a list and routeGenerator an object of the site's: not checked further). httpCache: features/httpCache. */
export const routesOptionKeys: OptionKeys<Pick<CwaPluginOptions, RoutesKey>> = {
  routeSecurity: true,
  routableSecurity: true,
  routeGenerator: true,
}

export function resolveRoutesOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, RoutesKey> {
  return {
    routeSecurity: options.routeSecurity ?? [],
    routableSecurity: options.routableSecurity ?? null,
    routeGenerator: options.routeGenerator ?? slugRouteGenerator,
  }
}
