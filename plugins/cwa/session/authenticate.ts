import type { PayloadRequest } from 'payload'
import { readCookies } from './cookies.js'
import { InvalidToken, type SessionClaims } from './jwt.js'

export type SessionUser = NonNullable<PayloadRequest['user']>

/** Where the caller's JWT came from. */
export interface PresentedCredentials {
  /** The JWT cookie's value, if any. */
  cookie?: string
  /** The `Authorization: Bearer` token, if any. */
  bearer?: string
}

export function presentedCredentials(
  headers: { cookie?: string | null; authorization?: string | null },
  cookieName: string,
): PresentedCredentials {
  const cookie = readCookies(headers.cookie).get(cookieName) || undefined
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]
  return { cookie, bearer }
}

/** The user Payload's access functions see, from the JWT claims (or a freshly signed user). */
export function sessionUser(claims: { sub: string; username?: string | null; roles?: string[] | null }): SessionUser {
  return {
    id: claims.sub,
    collection: 'users',
    username: claims.username ?? '',
    roles: claims.roles ?? [],
    email: '',
  }
}

/** The verified claims each request's user was made from (what a response hook needs to know of the session). */
const claimsOfUser = new WeakMap<object, SessionClaims>()

/** The user of a verified JWT, remembered with its claims (sessionClaimsOf). */
export function userOfClaims(claims: SessionClaims): SessionUser {
  const user = sessionUser(claims)
  claimsOfUser.set(user, claims)
  return user
}

/** The verified session JWT claims a request's user was made from; undefined for a user made otherwise. */
export function sessionClaimsOf(user: object | null | undefined): SessionClaims | undefined {
  return user ? claimsOfUser.get(user) : undefined
}

export { InvalidToken }
