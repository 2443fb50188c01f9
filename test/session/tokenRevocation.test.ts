import { beforeAll, describe, expect, it } from '@jest/globals'
import { decodeJwt, SignJWT } from 'jose'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { useMailSite } from '../support/mail'
import { PASSWORD } from '../support/server'
import type { ReceivedMessage } from '../support/smtp'
import { linkParts, submitReset, theLink } from '../support/emailFlows'
import { cookieHeader, cookiesOf, JWT_COOKIE, loginSession } from '../support/sessionCookies'

/**
 * Issue 11, hardening of sessions: a JWT signed with the site's key must
 * carry `exp` and `iat`, and it ends as soon as its user is disabled,
 * demoted, deleted, or changes or resets the password — on the JSON-LD API
 * and on Payload's REST API alike (the two must not disagree).
 */

const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'https://front.example' } } })

/** A token signed with the site's own key, with the claims given. */
async function signed(claims: Record<string, unknown>, times: { iat?: number; exp?: number }): Promise<string> {
  const keys = await loadJwtKeys(process.env)
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
  if (times.iat !== undefined) jwt = jwt.setIssuedAt(times.iat)
  if (times.exp !== undefined) jwt = jwt.setExpirationTime(times.exp)
  return jwt.sign(keys.privateKey)
}

/** Runs `fn` with the session check's cache on (CWA_SESSION_CHECK_CACHE_MS unset: the default 2 s). */
async function withCache(fn: () => Promise<void>): Promise<void> {
  const previous = process.env.CWA_SESSION_CHECK_CACHE_MS
  delete process.env.CWA_SESSION_CHECK_CACHE_MS
  try {
    await fn()
  } finally {
    if (previous !== undefined) process.env.CWA_SESSION_CHECK_CACHE_MS = previous
  }
}

const me = (jwt: string) => server.get('/_api/me', { token: jwt })
const restMe = async (jwt: string) =>
  (await server.get('/api/users/me', { headers: { cookie: cookieHeader({ jwt }) } })).body?.user ?? null

let aliceId: string
beforeAll(async () => {
  aliceId = await server.createUser('alice', ['ROLE_ADMIN'])
})

describe('tokens signed with the right key but without a lifetime', () => {
  const now = () => Math.floor(Date.now() / 1000)

  it('security: a token without exp is refused forever-token attack (401 on /_api, no user on /api)', async () => {
    const jwt = await signed({ sub: aliceId, username: 'alice', roles: ['ROLE_ADMIN'] }, { iat: now() })
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
  })

  it('security: a token without iat is refused', async () => {
    const jwt = await signed({ sub: aliceId, username: 'alice', roles: ['ROLE_ADMIN'] }, { exp: now() + 600 })
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
  })

  it('security: a token whose exp lies years ahead is refused once older than the token lifetime', async () => {
    const jwt = await signed(
      { sub: aliceId, username: 'alice', roles: ['ROLE_ADMIN'] },
      { iat: now() - 7200, exp: now() + 10 * 365 * 86400 },
    )
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
  })

  it('security: a token issued in the future is refused', async () => {
    const jwt = await signed(
      { sub: aliceId, username: 'alice', roles: ['ROLE_ADMIN'] },
      { iat: now() + 3600, exp: now() + 7200 },
    )
    expect((await me(jwt)).status).toBe(401)
  })

  it('a token with sub, iat and exp signed by the site is accepted (control)', async () => {
    const jwt = await signed(
      { sub: aliceId, username: 'alice', roles: ['ROLE_ADMIN'] },
      { iat: now(), exp: now() + 600 },
    )
    expect((await me(jwt)).status).toBe(200)
    expect(await restMe(jwt)).not.toBeNull()
  })
})

describe('a JWT ends with the account state it was issued for', () => {
  it('the JWT carries the token version, never shown on the user resource', async () => {
    await server.createUser('shown', ['ROLE_USER'])
    const { jwt } = await loginSession(server, 'shown')
    expect(decodeJwt(jwt).ver).toBe(0)
    const self = await me(jwt)
    expect(JSON.stringify(self.body)).not.toContain('tokenVersion')
    expect(JSON.stringify(await restMe(jwt))).not.toContain('tokenVersion')
    const root = await server.tokenFor('ROLE_SUPER_ADMIN')
    const users = await server.get('/_api/users', { token: root })
    expect(users.status).toBe(200)
    expect(users.text).not.toContain('tokenVersion')
    const rest = await server.get('/api/users', {
      headers: { cookie: cookieHeader({ jwt: root }), accept: 'application/json' },
    })
    expect(rest.status).toBe(200)
    expect(rest.text).not.toContain('tokenVersion')
  })

  it('security: a user cannot set their own token version through either API (reviving old tokens)', async () => {
    const id = await server.createUser('reviver', ['ROLE_USER'])
    const { jwt } = await loginSession(server, 'reviver')
    await server.patch(`/_api/users/${id}`, { tokenVersion: 7 }, { token: jwt })
    await server.request(
      'PATCH',
      `/api/users/${id}`,
      { tokenVersion: 7 },
      { headers: { cookie: cookieHeader({ jwt }) }, contentType: 'application/json' },
    )
    const [row] = await server.sql('SELECT token_version::int AS v FROM _acb_users WHERE id = $1', [id])
    expect(row.v).toBe(0)
    expect((await me(jwt)).status).toBe(200)
  })

  it('security: disabling a user ends their JWT at once (401 on /_api, no user on /api)', async () => {
    const id = await server.createUser('to-disable', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'to-disable')
    expect((await me(jwt)).status).toBe(200)
    await server.payload.update({ collection: 'users', id, data: { enabled: false } as never })
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
  })

  it('security: a user disabled behind the API (SQL) loses the JWT within the cache time of 2 s', async () => {
    const id = await server.createUser('sql-disabled', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'sql-disabled')
    await withCache(async () => {
      expect((await me(jwt)).status).toBe(200)
      await server.sql('UPDATE _acb_users SET enabled = false WHERE id = $1', [id])
      await new Promise((resolve) => setTimeout(resolve, 2100))
      expect((await me(jwt)).status).toBe(401)
    })
  })

  it('security: deleting a user ends their JWT at once', async () => {
    const id = await server.createUser('to-delete', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'to-delete')
    expect((await me(jwt)).status).toBe(200)
    await server.payload.delete({ collection: 'users', id })
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
  })

  it('security: a demoted admin keeps no admin rights: the bearer JWT is refused (401), a browser gets a new JWT with the current roles', async () => {
    const id = await server.createUser('demoted', ['ROLE_ADMIN'])
    const { jwt, refresh } = await loginSession(server, 'demoted')
    expect(decodeJwt(jwt).roles).toEqual(['ROLE_ADMIN'])
    await server.payload.update({ collection: 'users', id, data: { roles: ['ROLE_USER'] } as never })
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
    // The JWT cookie with the refresh cookie: refreshed on the fly, with the roles the user has now.
    const browser = await server.get('/_api/me', { headers: { cookie: cookieHeader({ jwt, refresh }) } })
    expect(browser.status).toBe(200)
    const renewed = cookiesOf(browser.headers).get(JWT_COOKIE)!.value
    expect(decodeJwt(renewed).roles).toEqual(['ROLE_USER'])
    expect((await me(renewed)).status).toBe(200)
    expect((await restMe(renewed))?.roles).toEqual(['ROLE_USER'])
  })

  it('security: a password change ends every JWT issued before it, on both APIs', async () => {
    const id = await server.createUser('changer', ['ROLE_USER'])
    const { jwt } = await loginSession(server, 'changer')
    const other = await loginSession(server, 'changer')
    const changed = await server.patch(`/_api/users/${id}`, { plainPassword: 'a brand new password' }, { token: jwt })
    expect(changed.status).toBe(200)
    expect((await me(jwt)).status).toBe(401)
    expect((await me(other.jwt)).status).toBe(401)
    expect(await restMe(other.jwt)).toBeNull()
    // The other session cannot come back through its refresh token either (revoked by the change).
    const browser = await server.get('/_api/me', { headers: { cookie: cookieHeader(other) } })
    expect(browser.status).toBe(401)
    // A login with the new password works.
    const { jwt: fresh } = await loginSession(server, 'changer', 'a brand new password')
    expect(decodeJwt(fresh).ver).toBe(1)
    expect((await me(fresh)).status).toBe(200)
    expect(await restMe(fresh)).not.toBeNull()
  })

  it('security: a password reset through the emailed link ends every JWT of the user', async () => {
    await server.createUser('resetter', ['ROLE_USER'])
    const { jwt } = await loginSession(server, 'resetter')
    expect((await me(jwt)).status).toBe(200)
    expect((await server.get('/_api/password/reset/request/resetter')).status).toBe(200)
    const mail = await smtp.waitFor(
      (m: ReceivedMessage) => m.to.includes('resetter@example.com') && /password reset/i.test(m.subject),
    )
    const { token } = linkParts(theLink(mail))
    expect((await submitReset(server, 'resetter', token, 'reset to this one')).status).toBe(201)
    expect((await me(jwt)).status).toBe(401)
    expect(await restMe(jwt)).toBeNull()
    expect((await loginSession(server, 'resetter', 'reset to this one')).jwt).toBeTruthy()
  })

  it('other edits (e.g. the email address) leave the JWT valid (control)', async () => {
    const id = await server.createUser('editor', ['ROLE_USER'])
    const { jwt } = await loginSession(server, 'editor', PASSWORD)
    await server.payload.update({ collection: 'users', id, data: { username: 'editor2' } as never })
    expect((await me(jwt)).status).toBe(200)
  })

  it('costs at most one query per authenticated request, and none while cached', async () => {
    await server.createUser('counted', ['ROLE_USER'])
    const { jwt } = await loginSession(server, 'counted')
    const headers = { authorization: `Bearer ${jwt}` }
    const payload = server.payload
    const { getOptions } = await import('../../plugins/cwa/dist/core/registry.js')
    const { authenticateRequest } = await import('../../plugins/cwa/dist/session/authenticateRequest.js')
    expect(getOptions(payload.config).apiPrefix).toBe('/_api')
    const call = () =>
      authenticateRequest({
        payload,
        method: 'GET',
        path: '/me',
        headers: new Headers(headers),
        responseHeaders: new Headers(),
      } as never)
    // Without the cache (as the other tests run): one query on every request.
    // The statements themselves are compared (not their number), so a failure shows what ran.
    expect((await server.countQueries(call)).sql).toHaveLength(1)
    expect((await server.countQueries(call)).sql).toHaveLength(1)
    await withCache(async () => {
      await new Promise((resolve) => setTimeout(resolve, 2100))
      const first = await server.countQueries(call)
      expect(first.result).not.toBeNull()
      expect(first.sql).toHaveLength(1)
      const second = await server.countQueries(call)
      expect(second.sql).toHaveLength(0)
    })
  })

  it('a change made through this instance is seen at once, cache or not', async () => {
    const id = await server.createUser('cached-disable', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'cached-disable')
    await withCache(async () => {
      expect((await me(jwt)).status).toBe(200)
      await server.payload.update({ collection: 'users', id, data: { enabled: false } as never })
      expect((await me(jwt)).status).toBe(401)
    })
  })
})
