import type { OptionKeys } from '../../core/optionKeys'
import type { CwaPluginOptions, ResolvedCwaOptions, SecurityExpression } from '../../core/options'
import { type RouteGenerator, slugRouteGenerator } from './generator'

/**
 * Options of the routes feature (route security, HTTP caching of anonymous
 * reads, the route generator), with every default here.
 */

/** A path pattern (`*` matches anything) and who may read routes under it. */
export interface RouteSecurityRule {
  route: string
  security: SecurityExpression
}

/**
 * HTTP caching of anonymous reads of routes, pages, page data and the
 * resource manifest. Unset: no max-age is sent (the default).
 */
export interface HttpCacheOptions {
  /** `max-age` (seconds) of anonymous GET responses of those resources. */
  maxAge?: number
  /** `s-maxage` (seconds) for shared caches (CDN, Varnish). */
  sharedMaxAge?: number
}

export interface ResolvedHttpCache {
  maxAge: number | null
  sharedMaxAge: number | null
}

declare module '../../core/options' {
  interface CwaPluginOptions {
    /** Who may read routes whose path matches a pattern (contract: route_security). Default none. */
    routeSecurity?: RouteSecurityRule[]
    /** Who may create pages and page data and read all content beyond what routes make reachable (contract: routable_security). Default unset: everyone. */
    routableSecurity?: SecurityExpression | null
    /** max-age / s-maxage of anonymous route, page, page data and manifest reads (capped at the next go-live). Default none. */
    httpCache?: HttpCacheOptions
    /** Builds the path of POST /_/routes/generate. Default: parent route path + title slug. */
    routeGenerator?: RouteGenerator
  }
  interface ResolvedCwaOptions {
    routeSecurity: RouteSecurityRule[]
    routableSecurity: SecurityExpression | null
    httpCache: ResolvedHttpCache
    routeGenerator: RouteGenerator
  }
}

type RoutesKey = 'routeSecurity' | 'routableSecurity' | 'httpCache' | 'routeGenerator'

/** Keys of the routes feature (routeSecurity is a list and routeGenerator an object of the site's: not checked further). */
export const routesOptionKeys: OptionKeys<Pick<CwaPluginOptions, RoutesKey>> = {
  routeSecurity: true,
  routableSecurity: true,
  httpCache: { maxAge: true, sharedMaxAge: true },
  routeGenerator: true,
}

export function resolveRoutesOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, RoutesKey> {
  return {
    routeSecurity: options.routeSecurity ?? [],
    routableSecurity: options.routableSecurity ?? null,
    httpCache: resolveHttpCache(options.httpCache),
    routeGenerator: options.routeGenerator ?? slugRouteGenerator,
  }
}

const seconds = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : null

export function resolveHttpCache(options: HttpCacheOptions | undefined): ResolvedHttpCache {
  return { maxAge: seconds(options?.maxAge), sharedMaxAge: seconds(options?.sharedMaxAge) }
}
