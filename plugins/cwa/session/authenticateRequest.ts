import type { AuthenticationRequest } from '../hydra/extension.js'
import { HttpError } from '../hydra/errors.js'
import { getOptions } from '../core/registry.js'
import { InvalidToken, presentedCredentials, type SessionUser, userOfClaims } from './authenticate.js'
import { readCookies } from './cookies.js'
import { clearSessionCookies, refreshSession, setSessionCookies } from './refresh.js'
import { tokenStanding } from './revocation.js'
import { sessionServices } from './services.js'

/**
 * Session paths that must work with a stale JWT: the browser keeps sending the
 * JWT cookie (lifetime 604800 s) long after the token itself expired (3600 s),
 * and it is exactly then that the client logs in again or refreshes. They
 * never refresh transparently: /token/refresh rotates the token itself and
 * /logout revokes the one presented.
 */
export const SESSION_PATHS = new Set(['/login', '/logout', '/token/refresh'])

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

export const UNVERIFIED = 'Your email address has not been verified yet.'

export const REUSE_DETECTED = 'Refresh token reuse detected: every session of this user has been revoked.'

/**
 * Resolves the caller: from the JWT cookie, else the bearer header. A JWT
 * cookie that expired (or is missing) beside a valid refresh cookie is
 * refreshed transparently: the request proceeds authenticated and the
 * response carries the new cookies (the refresh token rotates). An expired
 * bearer token stays 401: a client sending headers refreshes itself.
 * A valid signature is not enough: the user must still exist and be
 * enabled, and the token must be signed under the user's current token
 * version (session/revocation.ts); a stale cookie JWT is refreshed like an
 * expired one (the new JWT carries the current roles).
 */
export async function authenticateRequest(request: AuthenticationRequest): Promise<SessionUser | null> {
  const options = getOptions(request.payload.config)
  const { session } = options
  const path = request.path.replace(/\/+$/, '')
  const cookieHeader = request.headers.get('cookie')
  const credentials = presentedCredentials(
    { cookie: cookieHeader, authorization: request.headers.get('authorization') },
    session.cookieName,
  )
  const refreshToken = readCookies(cookieHeader).get(session.refreshCookieName)
  const mayRefresh = Boolean(refreshToken) && !SESSION_PATHS.has(path)
  const services = await sessionServices(request.payload)

  /** Transparent refresh; null when the refresh token is not usable. */
  const refreshed = async () => {
    const result = await refreshSession(services, refreshToken)
    if (result.status === 'reused') throw new HttpError(401, REUSE_DETECTED)
    if (result.status === 'unverified') clearSessionCookies(request.responseHeaders, options)
    if (result.status !== 'refreshed') return null
    setSessionCookies(request.responseHeaders, options, result.jwt, result.refreshToken)
    return result.user
  }

  const token = credentials.cookie || credentials.bearer
  if (!token) return mayRefresh ? await refreshed() : null
  try {
    const claims = await services.jwt.verify(token)
    const standing = await tokenStanding(request.payload, claims)
    if (standing === 'gone') throw new InvalidToken('invalid')
    if (standing === 'stale') throw new InvalidToken('revoked')
    // A preview link only buys a preview token (previewTokens.ts); a preview token only reads.
    if (claims.scope === 'preview-link') throw new InvalidToken('invalid')
    if (claims.scope === 'preview' && !READS.has(request.method))
      throw new HttpError(403, 'A preview token may only read.')
    return userOfClaims(claims)
  } catch (error) {
    if (!(error instanceof InvalidToken)) throw error
    // A JWT signed before a password change or a change of roles is replaced like an expired one when the refresh token still works.
    if ((error.reason === 'expired' || error.reason === 'revoked') && credentials.cookie && mayRefresh) {
      const user = await refreshed()
      if (user) return user
    }
    if (request.method === 'POST' && SESSION_PATHS.has(path)) return null
    throw new HttpError(401, error.message)
  }
}
