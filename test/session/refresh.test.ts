import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { decodeJwt, SignJWT } from 'jose'
import { REUSE_GRACE_SECONDS } from '../../plugins/cwa/dist/session/refreshTokens.js'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'
import {
  ageUse,
  cookieHeader,
  cookiesOf,
  expiredJwt,
  JWT_COOKIE,
  loginSession,
  REFRESH_COOKIE,
  type Session,
  sha256,
  sql,
  tokenState,
  usableTokens,
} from '../support/sessionCookies'

/**
 * Refresh tokens rotate on use, a rotated token replayed revokes the whole
 * user's sessions, and an expired JWT cookie is refreshed transparently on
 * any API request (issue 3, "Sessions"; contract, "Authentication").
 */

let server: TestServer
const ids: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer()
  for (const name of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan', 'judy']) {
    ids[name] = await server.createUser(name)
  }
  ids.editor = await server.createUser('editor', ['ROLE_ADMIN'])
})
afterAll(async () => {
  await server?.close()
})

const refreshWith = (refresh: string, jwt?: string) =>
  server.post('/_api/token/refresh', undefined, { headers: { cookie: cookieHeader({ jwt, refresh }) } })

/** The session the response's cookies hold. */
function sessionFrom(headers: Headers): Session {
  const cookies = cookiesOf(headers)
  return { jwt: cookies.get(JWT_COOKIE)!.value, refresh: cookies.get(REFRESH_COOKIE)!.value }
}

const rowCount = async (userId: string) =>
  (await sql(server, 'SELECT count(*)::int AS n FROM _acb_refresh_tokens WHERE user_id = $1', [userId]))[0].n as number

describe('rotation: POST /_api/token/refresh', () => {
  it('sets a new JWT cookie and a new refresh cookie, and marks the used refresh token as used', async () => {
    const login = await loginSession(server, 'alice')
    const before = await rowCount(ids.alice!)
    const response = await refreshWith(login.refresh)
    expect(response.status).toBe(204)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const cookies = cookiesOf(response.headers)
    expect([...cookies.keys()].sort()).toEqual([JWT_COOKIE, REFRESH_COOKIE])
    const refresh = cookies.get(REFRESH_COOKIE)!
    expect(refresh.value).not.toBe(login.refresh)
    expect(refresh.value.length).toBeGreaterThanOrEqual(43)
    expect(refresh.attrs.get('httponly')).toBe(true)
    expect(refresh.attrs.get('secure')).toBe(true)
    expect(refresh.attrs.get('samesite')).toBe('Lax')
    expect(refresh.attrs.get('path')).toBe('/_api')
    expect(refresh.attrs.get('max-age')).toBe('604800')
    expect(decodeJwt(cookies.get(JWT_COOKIE)!.value).sub).toBe(ids.alice)

    expect(await tokenState(server, login.refresh)).toBe('used')
    expect(await tokenState(server, refresh.value)).toBe('usable')
    expect(await rowCount(ids.alice!)).toBe(before + 1)
    // Stored hashed, never raw, with a fresh 604800 s lifetime.
    const [row] = await sql(server, 'SELECT user_id, expires_at FROM _acb_refresh_tokens WHERE token_hash = $1', [
      sha256(refresh.value),
    ])
    expect(row.user_id).toBe(ids.alice)
    expect(Math.abs(new Date(row.expires_at).getTime() - (Date.now() + 604800_000))).toBeLessThan(60_000)
    expect(
      (
        await sql(server, 'SELECT count(*)::int AS n FROM _acb_refresh_tokens WHERE token_hash = $1', [refresh.value])
      )[0].n,
    ).toBe(0)
  })

  it('keeps the session going through successive rotations, each token used once', async () => {
    let session = await loginSession(server, 'bob')
    const seen = new Set([session.refresh])
    for (let i = 0; i < 3; i++) {
      const response = await refreshWith(session.refresh)
      expect(response.status).toBe(204)
      const next = sessionFrom(response.headers)
      expect(seen.has(next.refresh)).toBe(false)
      seen.add(next.refresh)
      expect(await tokenState(server, session.refresh)).toBe('used')
      session = next
    }
    const me = await server.get('/_api/me', { headers: { cookie: cookieHeader({ jwt: session.jwt }) } })
    expect(me.status).toBe(200)
    expect(me.body.username).toBe('bob')
    expect(await usableTokens(server, ids.bob!)).toBe(1)
  })

  it('stolen token replayed after the victim used it (refresh token reuse attack): 401 and every token of the user revoked', async () => {
    const victim = await loginSession(server, 'carol')
    const otherDevice = await loginSession(server, 'carol')
    const bystander = await loginSession(server, 'dave')
    const rotated = await refreshWith(victim.refresh)
    expect(rotated.status).toBe(204)
    const victimNext = sessionFrom(rotated.headers)
    await ageUse(server, victim.refresh)

    const replay = await refreshWith(victim.refresh)
    expect(replay.status).toBe(401)
    expect(replay.body['@type']).toBe('Error')
    expect(replay.headers.getSetCookie()).toEqual([])

    // Every refresh token of the user is revoked: the victim's successor and the other device's token.
    expect(await usableTokens(server, ids.carol!)).toBe(0)
    for (const token of [victimNext.refresh, otherDevice.refresh]) {
      expect(await tokenState(server, token)).toBe('ended')
      expect((await refreshWith(token)).status).toBe(401)
    }
    // Replayed again: still 401.
    expect((await refreshWith(victim.refresh)).status).toBe(401)
    // Other users are untouched.
    expect((await refreshWith(bystander.refresh)).status).toBe(204)
    // The user can log in again.
    expect((await refreshWith((await loginSession(server, 'carol')).refresh)).status).toBe(204)
  })

  it("stolen token used first by the thief (refresh token reuse attack): the victim's next refresh revokes the thief's session", async () => {
    const victim = await loginSession(server, 'erin')
    const thief = await refreshWith(victim.refresh) // the thief replays the stolen cookie first
    expect(thief.status).toBe(204)
    const thiefSession = sessionFrom(thief.headers)
    await ageUse(server, victim.refresh)

    expect((await refreshWith(victim.refresh)).status).toBe(401)
    expect(await tokenState(server, thiefSession.refresh)).toBe('ended')
    expect((await refreshWith(thiefSession.refresh)).status).toBe(401)
    expect(await usableTokens(server, ids.erin!)).toBe(0)
  })

  it(`detects the reuse once the ${REUSE_GRACE_SECONDS} s grace period has really passed (no clock trick)`, async () => {
    const login = await loginSession(server, 'frank')
    const rotated = await refreshWith(login.refresh)
    expect(rotated.status).toBe(204)
    const next = sessionFrom(rotated.headers)
    // Until the database's clock (the one the grace is judged by) is past the grace period of the first use.
    await waitFor(
      async () =>
        (
          await sql(
            server,
            'SELECT revoked_at <= now() - make_interval(secs => $2) AS over FROM _acb_refresh_tokens WHERE token_hash = $1',
            [sha256(login.refresh), REUSE_GRACE_SECONDS],
          )
        )[0]?.over === true,
      { timeout: REUSE_GRACE_SECONDS * 1000 + 5000, interval: 100, message: 'the grace period to pass' },
    )
    expect((await refreshWith(login.refresh)).status).toBe(401)
    expect(await tokenState(server, next.refresh)).toBe('ended')
  }, 30_000)

  it('gives parallel requests of one page with the same refresh cookie the same successor: one new token, no false reuse alarm', async () => {
    const login = await loginSession(server, 'grace')
    const before = await rowCount(ids.grace!)
    const responses = await Promise.all(Array.from({ length: 6 }, () => refreshWith(login.refresh)))
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(204))
    const successors = new Set(responses.map((r) => sessionFrom(r.headers).refresh))
    expect(successors.size).toBe(1)
    expect(await rowCount(ids.grace!)).toBe(before + 1)
    const [successor] = [...successors]
    expect(await tokenState(server, successor!)).toBe('usable')
    // A late request of the same page, still within the grace period: the same successor again.
    const late = await refreshWith(login.refresh)
    expect(late.status).toBe(204)
    expect(sessionFrom(late.headers).refresh).toBe(successor)
    expect(await rowCount(ids.grace!)).toBe(before + 1)
    expect((await refreshWith(successor!)).status).toBe(204)
  })

  it('treats the used token as reuse even within the grace period once its successor was used too', async () => {
    const login = await loginSession(server, 'heidi')
    const first = sessionFrom((await refreshWith(login.refresh)).headers)
    const second = await refreshWith(first.refresh)
    expect(second.status).toBe(204)
    expect((await refreshWith(login.refresh)).status).toBe(401)
    expect(await usableTokens(server, ids.heidi!)).toBe(0)
    expect((await refreshWith(sessionFrom(second.headers).refresh)).status).toBe(401)
  })

  it("refuses a used token whose successor was logged out meanwhile, without revoking the user's other sessions", async () => {
    const login = await loginSession(server, 'ivan')
    const otherDevice = await loginSession(server, 'ivan')
    const next = sessionFrom((await refreshWith(login.refresh)).headers)
    expect((await server.post('/_api/logout', undefined, { headers: { cookie: cookieHeader(next) } })).status).toBe(204)
    expect((await refreshWith(login.refresh)).status).toBe(401)
    expect(await tokenState(server, otherDevice.refresh)).toBe('usable')
  })

  it('refuses a token of a user disabled since, and hands out no successor', async () => {
    const id = await server.createUser('soon-off')
    const login = await loginSession(server, 'soon-off')
    await sql(server, 'UPDATE _acb_users SET enabled = false WHERE id = $1', [id])
    const response = await refreshWith(login.refresh)
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await usableTokens(server, id)).toBe(0)
  })
})

describe('deleting a user', () => {
  it('deletes the refresh tokens with the user (the delete used to fail on them); the cookie then gets 401', async () => {
    const id = await server.createUser('deleted')
    const session = await loginSession(server, 'deleted')
    await loginSession(server, 'deleted')
    await server.payload.delete({ collection: 'users', id })
    expect(await rowCount(id)).toBe(0)
    expect((await sql(server, 'SELECT count(*)::int AS n FROM _acb_users WHERE id = $1', [id]))[0].n).toBe(0)
    expect((await refreshWith(session.refresh)).status).toBe(401)
  })
})

describe('POST /_api/logout', () => {
  it('refresh token reuse after logout: 401, on /token/refresh and transparently', async () => {
    const session = await loginSession(server, 'judy')
    const otherDevice = await loginSession(server, 'judy')
    const out = await server.post('/_api/logout', undefined, { headers: { cookie: cookieHeader(session) } })
    expect(out.status).toBe(204)
    expect(await tokenState(server, session.refresh)).toBe('ended')
    const replay = await refreshWith(session.refresh)
    expect(replay.status).toBe(401)
    expect(replay.headers.getSetCookie()).toEqual([])
    const transparent = await server.get('/_api/me', {
      headers: { cookie: cookieHeader({ jwt: await expiredJwt(ids.judy!), refresh: session.refresh }) },
    })
    expect(transparent.status).toBe(401)
    expect(transparent.headers.getSetCookie()).toEqual([])
    // A logged-out token is not a stolen one: the user's other sessions stay.
    expect(await tokenState(server, otherDevice.refresh)).toBe('usable')
  })

  it('revokes the presented token without rotating it first, even with an expired JWT cookie', async () => {
    const id = await server.createUser('leaving')
    const session = await loginSession(server, 'leaving')
    const before = await rowCount(id)
    const response = await server.post('/_api/logout', undefined, {
      headers: { cookie: cookieHeader({ jwt: await expiredJwt(id), refresh: session.refresh }) },
    })
    expect(response.status).toBe(204)
    expect(await rowCount(id)).toBe(before)
    expect(await tokenState(server, session.refresh)).toBe('ended')
    for (const cookie of cookiesOf(response.headers).values()) expect(cookie.value).toBe('')
  })
})

describe('transparent refresh on any API request', () => {
  const withCookies = (cookies: { jwt?: string; refresh?: string }) => ({ headers: { cookie: cookieHeader(cookies) } })

  it('serves a request with an expired JWT cookie and a valid refresh cookie, setting the new cookies', async () => {
    const id = await server.createUser('transparent')
    const login = await loginSession(server, 'transparent')
    const response = await server.get(
      '/_api/me',
      withCookies({ jwt: await expiredJwt(id, 'transparent'), refresh: login.refresh }),
    )
    expect(response.status).toBe(200)
    expect(response.body.username).toBe('transparent')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const next = sessionFrom(response.headers)
    expect(next.refresh).not.toBe(login.refresh)
    const claims = decodeJwt(next.jwt)
    expect(claims.sub).toBe(id)
    expect(claims.exp! - Date.now() / 1000).toBeGreaterThan(3500)
    expect(await tokenState(server, login.refresh)).toBe('used')
    expect(await tokenState(server, next.refresh)).toBe('usable')
    // The new cookies carry the session on.
    const again = await server.get('/_api/me', withCookies(next))
    expect(again.status).toBe(200)
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it('serves a request without a JWT cookie but with a valid refresh cookie', async () => {
    const id = await server.createUser('cookieless')
    const login = await loginSession(server, 'cookieless')
    const response = await server.get('/_api/me', withCookies({ refresh: login.refresh }))
    expect(response.status).toBe(200)
    expect(response.body.id).toBe(id)
    expect(cookiesOf(response.headers).has(JWT_COOKIE)).toBe(true)
    expect(await tokenState(server, login.refresh)).toBe('used')
  })

  it('authorizes a write the same way (POST with an expired JWT cookie)', async () => {
    const login = await loginSession(server, 'editor')
    const response = await server.post(
      '/_api/_/layouts',
      { reference: `transparent-${Date.now()}` },
      withCookies({ jwt: await expiredJwt(ids.editor!, 'editor', ['ROLE_ADMIN']), refresh: login.refresh }),
    )
    expect(response.status).toBe(201)
    expect(cookiesOf(response.headers).has(REFRESH_COOKIE)).toBe(true)
  })

  it('uses the roles stored now, not those of the expired token', async () => {
    const id = await server.createUser('demoted', ['ROLE_ADMIN'])
    const login = await loginSession(server, 'demoted')
    await sql(server, "UPDATE _acb_users_roles SET value = 'ROLE_USER' WHERE parent_id = $1", [id])
    const response = await server.post(
      '/_api/_/layouts',
      { reference: `demoted-${Date.now()}` },
      withCookies({ jwt: await expiredJwt(id, 'demoted', ['ROLE_ADMIN']), refresh: login.refresh }),
    )
    expect(response.status).toBe(403)
    expect(decodeJwt(sessionFrom(response.headers).jwt).roles).toEqual(['ROLE_USER'])
  })

  it('gives parallel requests of one page the same new cookies', async () => {
    const id = await server.createUser('parallel')
    const login = await loginSession(server, 'parallel')
    const jwt = await expiredJwt(id, 'parallel')
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => server.get('/_api/me', withCookies({ jwt, refresh: login.refresh }))),
    )
    expect(responses.map((r) => r.status)).toEqual(Array(5).fill(200))
    expect(new Set(responses.map((r) => sessionFrom(r.headers).refresh)).size).toBe(1)
    expect(await usableTokens(server, id)).toBe(1)
  })

  it('stolen token replayed with an expired JWT (refresh token reuse attack): 401 and every token of the user revoked', async () => {
    const id = await server.createUser('replayed')
    const login = await loginSession(server, 'replayed')
    const otherDevice = await loginSession(server, 'replayed')
    const jwt = await expiredJwt(id, 'replayed')
    expect((await server.get('/_api/me', withCookies({ jwt, refresh: login.refresh }))).status).toBe(200)
    await ageUse(server, login.refresh)
    const replay = await server.get('/_api/me', withCookies({ jwt, refresh: login.refresh }))
    expect(replay.status).toBe(401)
    expect(replay.headers.getSetCookie()).toEqual([])
    expect(await usableTokens(server, id)).toBe(0)
    expect(await tokenState(server, otherDevice.refresh)).toBe('ended')
  })

  it('stolen token replayed without any JWT (refresh token reuse attack): 401, not an anonymous request', async () => {
    const id = await server.createUser('replayed-bare')
    const login = await loginSession(server, 'replayed-bare')
    const otherDevice = await loginSession(server, 'replayed-bare')
    expect((await server.get('/_api/', withCookies({ refresh: login.refresh }))).status).toBe(200)
    await ageUse(server, login.refresh)
    const replay = await server.get('/_api/', withCookies({ refresh: login.refresh }))
    expect(replay.status).toBe(401)
    expect(await usableTokens(server, id)).toBe(0)
    expect(await tokenState(server, otherDevice.refresh)).toBe('ended')
  })

  it('keeps an expired JWT cookie 401 when the refresh cookie is unknown, expired or missing', async () => {
    const id = await server.createUser('stale')
    const login = await loginSession(server, 'stale')
    await sql(server, "UPDATE _acb_refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
      sha256(login.refresh),
    ])
    const jwt = await expiredJwt(id, 'stale')
    for (const refresh of ['not-a-token', login.refresh, undefined]) {
      const response = await server.get('/_api/me', withCookies({ jwt, refresh }))
      expect(response.status).toBe(401)
      expect(response.headers.getSetCookie()).toEqual([])
    }
  })

  it('treats a request with an unusable refresh cookie and no JWT as anonymous', async () => {
    const entry = await server.get('/_api/', withCookies({ refresh: 'not-a-token' }))
    expect(entry.status).toBe(200)
    expect(entry.headers.getSetCookie()).toEqual([])
    expect((await server.get('/_api/me', withCookies({ refresh: 'not-a-token' }))).status).toBe(401)
  })

  it('keeps an expired Bearer token 401, even beside a valid refresh cookie (header clients refresh themselves)', async () => {
    const id = await server.createUser('bearer')
    const login = await loginSession(server, 'bearer')
    const token = await expiredJwt(id, 'bearer')
    expect((await server.get('/_api/me', { token })).status).toBe(401)
    const withRefresh = await server.get('/_api/me', {
      token,
      headers: { cookie: cookieHeader({ refresh: login.refresh }) },
    })
    expect(withRefresh.status).toBe(401)
    expect(withRefresh.headers.getSetCookie()).toEqual([])
    expect(await tokenState(server, login.refresh)).toBe('usable')
  })

  it('forged JWT cookie beside a valid refresh cookie (payload tampering attack): 401 and the refresh token is not spent', async () => {
    const id = await server.createUser('tampered')
    const login = await loginSession(server, 'tampered')
    const [header, , signature] = login.jwt.split('.')
    const claims = { ...decodeJwt(login.jwt), roles: ['ROLE_SUPER_ADMIN'] }
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
    const response = await server.get('/_api/me', withCookies({ jwt: forged, refresh: login.refresh }))
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await tokenState(server, login.refresh)).toBe('usable')
    expect(await usableTokens(server, id)).toBe(1)
  })

  it('expired JWT cookie signed with another key (key substitution attack): 401, no refresh', async () => {
    const id = await server.createUser('substituted')
    const login = await loginSession(server, 'substituted')
    const { generateKeyPairSync } = await import('node:crypto')
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const now = Math.floor(Date.now() / 1000)
    const jwt = await new SignJWT({ username: 'substituted', roles: ['ROLE_USER'] })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(privateKey)
    expect((await server.get('/_api/me', withCookies({ jwt, refresh: login.refresh }))).status).toBe(401)
    expect(await tokenState(server, login.refresh)).toBe('usable')
  })

  it('leaves a valid JWT cookie alone: no rotation, no cookie', async () => {
    const login = await loginSession(server, 'alice')
    const response = await server.get('/_api/me', withCookies(login))
    expect(response.status).toBe(200)
    expect(response.headers.getSetCookie()).toEqual([])
    expect(await tokenState(server, login.refresh)).toBe('usable')
  })

  it('rotates only once on POST /_api/token/refresh with an expired JWT cookie (no transparent refresh before it)', async () => {
    const id = await server.createUser('explicit')
    const login = await loginSession(server, 'explicit')
    const before = await rowCount(id)
    const response = await refreshWith(login.refresh, await expiredJwt(id, 'explicit'))
    expect(response.status).toBe(204)
    expect(await rowCount(id)).toBe(before + 1)
    expect(await usableTokens(server, id)).toBe(1)
  })

  it('signs the refreshed JWT with the site key (RS256, verifiable with JWT_PUBLIC_KEY)', async () => {
    const id = await server.createUser('verified')
    const login = await loginSession(server, 'verified')
    const response = await server.get('/_api/me', withCookies({ jwt: await expiredJwt(id), refresh: login.refresh }))
    const { jwtVerify } = await import('jose')
    const { payload } = await jwtVerify(sessionFrom(response.headers).jwt, (await loadJwtKeys(process.env)).publicKey, {
      algorithms: ['RS256'],
    })
    expect(payload.sub).toBe(id)
  })
})
