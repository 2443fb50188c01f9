import type { AuthStrategy, CollectionAfterLoginHook, CollectionAfterLogoutHook } from 'payload'
import { clearCookie, readCookies } from '../../session/cookies.js'
import { JwtService } from '../../session/jwt.js'
import { type JwtKeys, loadJwtKeys } from '../../session/keys.js'
import { RefreshTokenStore } from '../../session/refreshTokens.js'
import { setSessionCookies } from '../../session/refresh.js'
import { sessionServices } from '../../session/services.js'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { crossSiteAllowed } from '../../hydra/crossSite.js'

export const API_SESSION_STRATEGY = 'cwa-api-session'

let keys: Promise<JwtKeys> | null = null

/** The JWT key pair, loaded once per process (a failed load is retried on the next request). */
function jwtKeys(): Promise<JwtKeys> {
  keys ??= loadJwtKeys(process.env).catch((error: unknown) => {
    keys = null
    throw error
  })
  return keys
}

/**
 * Payload's admin panel (and its REST and GraphQL APIs) accept the JSON-LD
 * API's session: the JWT cookie set by POST {api_prefix}/login, verified
 * with the site's public key and RS256 only (like the JSON-LD API does).
 * The user is read from the database, so a user disabled or deleted since
 * login is refused and current roles decide admin access; a token signed
 * before the user's token version moved on (password change or reset,
 * change of roles) is refused, as the JSON-LD API refuses it.
 */
export function apiSessionStrategy(options: ResolvedCwaOptions): AuthStrategy {
  return {
    name: API_SESSION_STRATEGY,
    async authenticate({ headers, payload, req, strategyName }) {
      const token = readCookies(headers.get('cookie')).get(options.session.cookieName)
      if (!token || !crossSiteAllowed(headers, payload)) return { user: null }
      // Unreadable keys throw: Payload logs the error and tries its other strategies.
      const jwt = new JwtService(await jwtKeys(), options.session.tokenTtl)
      let claims: { sub: string; ver?: number; scope?: string }
      try {
        claims = await jwt.verify(token)
      } catch {
        return { user: null } // forged, tampered, wrongly signed or expired token
      }
      // A preview token reads drafts through the JSON-LD API; it never signs anyone into the admin panel.
      if (claims.scope) return { user: null }
      const collection = payload.collections.users?.config
      if (!collection?.auth) return { user: null }
      const user = await payload
        .findByID({
          collection: 'users',
          id: claims.sub,
          depth: collection.auth.depth ?? 0,
          overrideAccess: true,
          disableErrors: true,
          req,
        })
        .catch(() => null)
      if (!user || user.enabled === false) return { user: null }
      // Signed before a password change or reset, or a change of roles: the same refusal as the JSON-LD API's.
      if (Number(claims.ver ?? 0) !== Number(user.tokenVersion ?? 0)) return { user: null }
      return { user: { ...user, collection: 'users', _strategy: strategyName ?? API_SESSION_STRATEGY } }
    },
  }
}

/**
 * Logging out of the admin panel ends the API session too: the cookies of
 * this browser are cleared, and the user's refresh tokens are revoked (the
 * refresh cookie is scoped to the API prefix, so it does not reach
 * /api/users/logout and this browser's token cannot be singled out; a copied
 * refresh cookie must not outlive a logout).
 */
export function clearApiSessionCookies(options: ResolvedCwaOptions): CollectionAfterLogoutHook {
  return async ({ req }) => {
    const headers = new Headers(req.responseHeaders ?? undefined)
    headers.append('Set-Cookie', clearCookie(options.session.cookieName, '/', options.session.sameSite))
    headers.append(
      'Set-Cookie',
      clearCookie(options.session.refreshCookieName, options.apiPrefix || '/', options.session.sameSite),
    )
    req.responseHeaders = headers
    const userId = (req.user as { id?: unknown } | null | undefined)?.id
    if (userId !== undefined && userId !== null) {
      const revoked = await new RefreshTokenStore(req.payload, options.session.refreshTtl).revokeAllOf(String(userId))
      req.payload.logger.info({ userId: String(userId), revoked }, 'Admin panel logout: refresh tokens revoked')
    }
  }
}

/**
 * Signing in to the admin panel (Payload's REST login, which its login form
 * calls) opens the JSON-LD API's session too: the admin's own views (the page
 * builder, the orphan report, uploads) call the JSON-LD API from the browser
 * with it. The JSON-LD API's POST /login sets its cookies itself (it runs the
 * same login through the Local API, so it is left alone here). Logging out of
 * the admin ends both (clearApiSessionCookies).
 */
export function openApiSessionOnAdminLogin(options: ResolvedCwaOptions): CollectionAfterLoginHook {
  return async ({ req, user }) => {
    if (req.payloadAPI !== 'REST' && req.payloadAPI !== 'GraphQL') return user
    const services = await sessionServices(req.payload)
    const headers = new Headers(req.responseHeaders ?? undefined)
    const issued = await services.refreshTokens.issue(String((user as { id: unknown }).id), req)
    setSessionCookies(headers, options, await services.jwt.sign(user, issued.session), issued.token)
    req.responseHeaders = headers
    return user
  }
}
