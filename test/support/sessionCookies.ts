import { expect } from '@jest/globals'
import { createHash } from 'node:crypto'
import { SignJWT } from 'jose'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { PASSWORD, type TestServer } from './server'

/** The session cookies and refresh tokens, as the session, user and orphan tests read and age them. */

export const JWT_COOKIE = 'api_component'
export const REFRESH_COOKIE = 'api_component_refresh'

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

export const sql = (server: TestServer, text: string, params: unknown[] = []) => server.sql(text, params)

export interface SetCookie {
  name: string
  value: string
  attrs: Map<string, string | true>
}

/** Parses one Set-Cookie line into its name, value and attributes (lower-case keys). */
export function parseSetCookie(line: string): SetCookie {
  const [pair, ...rest] = line.split(';').map((s) => s.trim())
  const eq = pair!.indexOf('=')
  const attrs = new Map<string, string | true>()
  for (const part of rest) {
    const i = part.indexOf('=')
    if (i === -1) attrs.set(part.toLowerCase(), true)
    else attrs.set(part.slice(0, i).toLowerCase(), part.slice(i + 1))
  }
  return { name: pair!.slice(0, eq), value: decodeURIComponent(pair!.slice(eq + 1)), attrs }
}

export function cookiesOf(headers: Headers): Map<string, SetCookie> {
  return new Map(
    headers.getSetCookie().map((line) => {
      const parsed = parseSetCookie(line)
      return [parsed.name, parsed] as const
    }),
  )
}

/** A Cookie request header from the session cookie values given. */
export function cookieHeader({ jwt, refresh }: { jwt?: string; refresh?: string }): string {
  const parts: string[] = []
  if (jwt !== undefined) parts.push(`${JWT_COOKIE}=${encodeURIComponent(jwt)}`)
  if (refresh !== undefined) parts.push(`${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`)
  return parts.join('; ')
}

export interface Session {
  jwt: string
  refresh: string
}

/** POST /_api/login; returns the two cookie values. */
export async function loginSession(server: TestServer, username: string, password = PASSWORD): Promise<Session> {
  const response = await server.post('/_api/login', { username, password }, { contentType: 'application/json' })
  expect(response.status).toBe(204)
  const cookies = cookiesOf(response.headers)
  return { jwt: cookies.get(JWT_COOKIE)!.value, refresh: cookies.get(REFRESH_COOKIE)!.value }
}

/** A JWT signed with the site's key that expired an hour ago. */
export async function expiredJwt(sub: string, username = 'someone', roles = ['ROLE_USER']): Promise<string> {
  const keys = await loadJwtKeys(process.env)
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ username, roles })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(keys.privateKey)
}

/** The stored record of a refresh token: used = revoked but not expired; ended = expired. */
export async function tokenState(server: TestServer, token: string): Promise<'usable' | 'used' | 'ended' | 'unknown'> {
  const [row] = await sql(
    server,
    'SELECT revoked_at IS NOT NULL AS revoked, expires_at > now() AS live FROM _acb_refresh_tokens WHERE token_hash = $1',
    [sha256(token)],
  )
  if (!row) return 'unknown'
  if (!row.live) return 'ended'
  return row.revoked ? 'used' : 'usable'
}

/** Refresh tokens of a user that can still be used (not revoked, not expired). */
export async function usableTokens(server: TestServer, userId: string): Promise<number> {
  const [row] = await sql(
    server,
    'SELECT count(*)::int AS n FROM _acb_refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()',
    [userId],
  )
  return row.n
}

/**
 * Moves the moment a token was used back by a minute: the same as waiting
 * past the grace period in which parallel requests of one page share the
 * successor (REUSE_GRACE_SECONDS).
 */
export async function ageUse(server: TestServer, token: string): Promise<void> {
  await sql(
    server,
    "UPDATE _acb_refresh_tokens SET revoked_at = revoked_at - interval '1 minute' WHERE token_hash = $1",
    [sha256(token)],
  )
}
