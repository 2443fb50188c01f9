import type { PayloadRequest } from 'payload'
import type { FormsOptions } from './features/forms/types'
import { resolveUserOptions, type ResolvedUserOptions, type UserOptions } from './features/users/options'
import { type HttpCacheOptions, type ResolvedHttpCache, resolveHttpCache } from './features/routes/options'
import { type RouteGenerator, slugRouteGenerator } from './features/routes/generator'

/** The three roles of the contract; applications may add their own. */
export const ROLE_USER = 'ROLE_USER'
export const ROLE_ADMIN = 'ROLE_ADMIN'
export const ROLE_SUPER_ADMIN = 'ROLE_SUPER_ADMIN'

/**
 * A security expression: a role name the caller must hold (after hierarchy
 * expansion), or a function deciding from the request's user.
 */
export type SecurityExpression = string | ((user: PayloadRequest['user'] | null) => boolean)

export interface CwaPluginOptions {
  /** Mount point of the JSON-LD API; every IRI starts with it. Default `/_api`. */
  apiPrefix?: string
  /** Prefix of the service's own tables. Default `_acb_`. */
  tablePrefix?: string
  /** Site name used in emails. */
  websiteName?: string
  /** Role hierarchy: role -> roles it includes. */
  roleHierarchy?: Record<string, string[]>
  users?: {
    /** Opens anonymous POST /users (registration). Default false. */
    allowRegistration?: boolean
  }
  /** Form types of the site and success listeners. */
  forms?: FormsOptions
  /** Email links, verification, password reset, email change and notice emails (contract: `user.*`). */
  user?: UserOptions
  publishable?: {
    /** Who sees drafts and may set publishedAt. Default ROLE_ADMIN. */
    permission?: SecurityExpression
  }
  routeSecurity?: Array<{ route: string; security: SecurityExpression }>
  routableSecurity?: SecurityExpression | null
  /** max-age / s-maxage of anonymous route, page, page data and manifest reads (capped at the next go-live). Default none. */
  httpCache?: HttpCacheOptions
  /** Builds the path of POST /_/routes/generate. Default: parent route path + title slug. */
  routeGenerator?: RouteGenerator
  enabledComponents?: { form?: boolean; collection?: boolean }
  session?: {
    /** Name of the JWT cookie, used by the setter, the extractor and the refresh cookie settings. */
    cookieName?: string
    /** SameSite attribute of the session cookies. */
    sameSite?: 'lax' | 'strict' | 'none'
    /** JWT lifetime in seconds. */
    tokenTtl?: number
    /** Refresh token and cookie lifetime in seconds. */
    refreshTtl?: number
  }
  /** Everything else the contract configures (user email flows, orphans...) lives here too. */
  [key: string]: unknown
}

export interface ResolvedCwaOptions {
  apiPrefix: string
  tablePrefix: string
  websiteName: string
  roleHierarchy: Record<string, string[]>
  users: { allowRegistration: boolean }
  user: ResolvedUserOptions
  publishable: { permission: SecurityExpression }
  routeSecurity: Array<{ route: string; security: SecurityExpression }>
  routableSecurity: SecurityExpression | null
  httpCache: ResolvedHttpCache
  routeGenerator: RouteGenerator
  enabledComponents: { form: boolean; collection: boolean }
  session: {
    cookieName: string
    refreshCookieName: string
    sameSite: 'lax' | 'strict' | 'none'
    tokenTtl: number
    refreshTtl: number
  }
  raw: CwaPluginOptions
}

/** Every default of the plugin, in one place. */
export function resolveOptions(options: CwaPluginOptions = {}): ResolvedCwaOptions {
  const apiPrefix = normalizePrefix(options.apiPrefix ?? '/_api')
  const cookieName = options.session?.cookieName ?? 'api_component'
  return {
    apiPrefix,
    tablePrefix: options.tablePrefix ?? '_acb_',
    websiteName: options.websiteName ?? 'Website',
    roleHierarchy: options.roleHierarchy ?? {
      [ROLE_ADMIN]: [ROLE_USER],
      [ROLE_SUPER_ADMIN]: [ROLE_ADMIN, 'ROLE_ALLOWED_TO_SWITCH'],
    },
    users: { allowRegistration: options.users?.allowRegistration ?? false },
    user: resolveUserOptions(options.user),
    publishable: { permission: options.publishable?.permission ?? ROLE_ADMIN },
    routeSecurity: options.routeSecurity ?? [],
    routableSecurity: options.routableSecurity ?? null,
    httpCache: resolveHttpCache(options.httpCache),
    routeGenerator: options.routeGenerator ?? slugRouteGenerator,
    enabledComponents: {
      form: options.enabledComponents?.form ?? true,
      collection: options.enabledComponents?.collection ?? true,
    },
    session: {
      cookieName,
      refreshCookieName: `${cookieName}_refresh`,
      sameSite: options.session?.sameSite ?? 'lax',
      tokenTtl: options.session?.tokenTtl ?? 3600,
      refreshTtl: options.session?.refreshTtl ?? 604800,
    },
    raw: options,
  }
}

function normalizePrefix(prefix: string): string {
  const trimmed = prefix.trim().replace(/\/+$/, '')
  if (trimmed === '') return ''
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`
}
