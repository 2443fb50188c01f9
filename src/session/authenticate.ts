import type { PayloadRequest } from 'payload'
import { readCookies } from './cookies'
import { InvalidToken, type JwtService } from './jwt'

export type SessionUser = NonNullable<PayloadRequest['user']>

/**
 * Finds the caller's JWT (cookie first, then `Authorization: Bearer`) and
 * turns its claims into the user Payload's access functions see. The user
 * comes from the token alone (JWT provider), so reads cost no query.
 * Returns null for anonymous callers; throws InvalidToken for a bad token.
 */
export async function authenticate(
  headers: { cookie?: string | null; authorization?: string | null },
  jwt: JwtService,
  cookieName: string,
): Promise<SessionUser | null> {
  const fromCookie = readCookies(headers.cookie).get(cookieName)
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]
  const token = fromCookie || bearer
  if (!token) return null
  const claims = await jwt.verify(token)
  return {
    id: claims.sub,
    collection: 'users',
    username: claims.username,
    roles: claims.roles,
    email: '',
  } as unknown as SessionUser
}

export { InvalidToken }
