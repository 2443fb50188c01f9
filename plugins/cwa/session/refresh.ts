import type { ResolvedCwaOptions } from '../core/options.js'
import { getOptions } from '../core/registry.js'
import { sessionUser, type SessionUser } from './authenticate.js'
import { clearCookie, serializeCookie } from './cookies.js'
import type { SessionServices } from './services.js'

export type SessionRefresh =
  | { status: 'refreshed'; jwt: string; refreshToken: string; user: SessionUser }
  | { status: 'reused' }
  | { status: 'invalid' }
  /** The user may not log in before verifying the address (denyUnverifiedLogin): refused like a login. */
  | { status: 'unverified' }

interface StoredUser {
  id: string
  username?: string | null
  roles?: string[] | null
  enabled?: boolean | null
  emailAddressVerified?: boolean | null
}

/**
 * A new session from a refresh token: the token is rotated (see
 * RefreshTokenStore.rotate) and a JWT signed for the user as stored now, so
 * a disabled or deleted user gets nothing and changed roles take effect.
 * With emailVerification.denyUnverifiedLogin an unverified user gets
 * nothing either (refused like a login: e.g. after a direct address change,
 * an earlier session must not outlive the check by refreshing forever).
 */
export async function refreshSession(
  services: SessionServices,
  refreshToken: string | undefined,
): Promise<SessionRefresh> {
  const store = services.refreshTokens
  const rotation = await store.rotate(refreshToken ?? '')
  if (rotation.status === 'reused') {
    store.payload.logger.warn(
      { userId: rotation.userId },
      'A used refresh token was presented again (stolen token replayed?): every refresh token of the user is revoked',
    )
    return { status: 'reused' }
  }
  if (rotation.status === 'invalid') return { status: 'invalid' }
  const user = (await store.payload
    .findByID({ collection: 'users', id: rotation.userId, depth: 0, overrideAccess: true, disableErrors: true })
    .catch(() => null)) as StoredUser | null
  if (!user || user.enabled === false) {
    await store.revoke(rotation.token)
    return { status: 'invalid' }
  }
  if (
    getOptions(store.payload.config).user.emailVerification.denyUnverifiedLogin &&
    user.emailAddressVerified === false
  ) {
    await store.revoke(rotation.token)
    return { status: 'unverified' }
  }
  const jwt = await services.jwt.sign(user, rotation.session)
  return {
    status: 'refreshed',
    jwt,
    refreshToken: rotation.token,
    user: sessionUser({ sub: String(user.id), username: user.username, roles: user.roles }),
  }
}

/** Path of the refresh cookie: only the API receives it. */
export function refreshCookiePath(options: ResolvedCwaOptions): string {
  return options.apiPrefix || '/'
}

/** Clears both session cookies (logout, a refresh refused to an unverified user). */
export function clearSessionCookies(headers: Headers, options: ResolvedCwaOptions): void {
  const { session } = options
  headers.append('Set-Cookie', clearCookie(session.cookieName, '/', session.sameSite))
  headers.append('Set-Cookie', clearCookie(session.refreshCookieName, refreshCookiePath(options), session.sameSite))
}

/** Sets the JWT cookie and the refresh cookie (login, refresh, transparent refresh). */
export function setSessionCookies(
  headers: Headers,
  options: ResolvedCwaOptions,
  jwt: string,
  refreshToken: string,
): void {
  const { session } = options
  headers.append(
    'Set-Cookie',
    serializeCookie(session.cookieName, jwt, { maxAge: session.refreshTtl, path: '/', sameSite: session.sameSite }),
  )
  headers.append(
    'Set-Cookie',
    serializeCookie(session.refreshCookieName, refreshToken, {
      maxAge: session.refreshTtl,
      path: refreshCookiePath(options),
      sameSite: session.sameSite,
    }),
  )
  // A response carrying session cookies is never stored by a shared cache: the admin panel's login on Payload's
  // REST API sets them too, outside the pipeline (the JSON-LD login and refresh also declare `cache: 'no-store'`).
  // eslint-disable-next-line no-restricted-syntax -- the cookies and their no-store travel together
  headers.set('Cache-Control', 'private, no-store')
}
