import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createHash, generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'
import { cookiesOf, JWT_COOKIE, REFRESH_COOKIE } from '../support/sessionCookies'

/**
 * Sessions (service contract, "Authentication"): POST /login sets the JWT and
 * refresh-token cookies, GET /me, POST /logout, and tokens that are not
 * ours are refused.
 */

let server: TestServer

const sql = (text: string, params: unknown[] = []) => server.sql(text, params)

function login(body: unknown, contentType = 'application/json') {
  return server.post('/_api/login', body, { contentType })
}

async function loginCookies(username: string, password = PASSWORD) {
  const response = await login({ username, password })
  expect(response.status).toBe(204)
  const cookies = cookiesOf(response.headers)
  return { jwt: cookies.get(JWT_COOKIE)!.value, refresh: cookies.get(REFRESH_COOKIE)!.value, response }
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

let userId: string
let superAdminId: string

beforeAll(async () => {
  server = await startTestServer()
  userId = await server.createUser('alice', ['ROLE_USER'])
  superAdminId = await server.createUser('root', ['ROLE_SUPER_ADMIN'])
  await server.createUser('boss', ['ROLE_ADMIN'])
  await server.createUser('disabled', ['ROLE_ADMIN'], { enabled: false })
})
afterAll(async () => {
  await server?.close()
})

describe('POST /_api/login', () => {
  it('sets the JWT cookie and the refresh cookie, both HttpOnly, Secure, SameSite=Lax', async () => {
    const response = await login({ username: 'alice', password: PASSWORD })
    expect(response.status).toBe(204)
    const cookies = cookiesOf(response.headers)
    expect([...cookies.keys()].sort()).toEqual([JWT_COOKIE, REFRESH_COOKIE])
    for (const name of [JWT_COOKIE, REFRESH_COOKIE]) {
      const cookie = cookies.get(name)!
      expect(cookie.value.length).toBeGreaterThan(20)
      expect(cookie.attrs.get('httponly')).toBe(true)
      expect(cookie.attrs.get('secure')).toBe(true)
      expect(cookie.attrs.get('samesite')).toBe('Lax')
    }
    expect(response.headers.get('cache-control')).toContain('no-store')
  })

  it('gives the JWT cookie and the refresh cookie a lifetime of 604800 s', async () => {
    const { response } = await loginCookies('alice')
    const cookies = cookiesOf(response.headers)
    expect(cookies.get(JWT_COOKIE)!.attrs.get('max-age')).toBe('604800')
    expect(cookies.get(REFRESH_COOKIE)!.attrs.get('max-age')).toBe('604800')
    const expires = Date.parse(String(cookies.get(JWT_COOKIE)!.attrs.get('expires')))
    expect(Math.abs(expires - (Date.now() + 604800_000))).toBeLessThan(60_000)
  })

  it('issues an RS256 JWT that lives 3600 s and names the user', async () => {
    const { jwt } = await loginCookies('alice')
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    const claims = decodeJwt(jwt)
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(60)
    expect(claims.sub).toBe(userId)
    expect(claims.username).toBe('alice')
  })

  it('signs the JWT with the configured key pair (verifiable with JWT_PUBLIC_KEY, key of 4096 bits)', async () => {
    const { jwt } = await loginCookies('alice')
    const keys = await loadJwtKeys(process.env)
    expect(keys.publicKey.asymmetricKeyDetails?.modulusLength).toBe(4096)
    const { jwtVerify } = await import('jose')
    const { payload } = await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'] })
    expect(payload.sub).toBe(userId)
  })

  it('accepts application/ld+json bodies too', async () => {
    const response = await login({ username: 'alice', password: PASSWORD }, 'application/ld+json')
    expect(response.status).toBe(204)
  })

  it('stores the refresh token server side, hashed, with a 604800 s lifetime', async () => {
    const before = await sql('SELECT count(*)::int AS n FROM _acb_refresh_tokens WHERE user_id = $1', [userId])
    const { refresh } = await loginCookies('alice')
    const rows = await sql(
      'SELECT token_hash, expires_at, revoked_at FROM _acb_refresh_tokens WHERE user_id = $1 ORDER BY created_at DESC',
      [userId],
    )
    expect(rows).toHaveLength(before[0].n + 1)
    const row = rows[0]
    expect(row.token_hash).not.toBe(refresh)
    expect(row.token_hash).not.toContain(refresh)
    expect(row.token_hash).toBe(createHash('sha256').update(refresh).digest('hex'))
    expect(row.revoked_at).toBeNull()
    expect(Math.abs(new Date(row.expires_at).getTime() - (Date.now() + 604800_000))).toBeLessThan(60_000)
    // The raw token is stored nowhere.
    const raw = await sql('SELECT count(*)::int AS n FROM _acb_refresh_tokens WHERE token_hash = $1', [refresh])
    expect(raw[0].n).toBe(0)
  })

  it('issues a different refresh token on every login', async () => {
    const a = await loginCookies('alice')
    const b = await loginCookies('alice')
    expect(a.refresh).not.toBe(b.refresh)
  })

  it.each([
    ['a wrong password', { username: 'alice', password: 'wrong password' }],
    ['an unknown user', { username: 'nobody', password: PASSWORD }],
    ['a disabled user (enabled: false) with the right password', { username: 'disabled', password: PASSWORD }],
  ])('answers 401 and sets no cookie for %s', async (_label, body) => {
    const tokensBefore = await sql('SELECT count(*)::int AS n FROM _acb_refresh_tokens')
    const response = await login(body)
    expect(response.status).toBe(401)
    expect(response.body['@type']).toBe('Error')
    expect(response.headers.getSetCookie()).toEqual([])
    expect((await sql('SELECT count(*)::int AS n FROM _acb_refresh_tokens'))[0].n).toBe(tokensBefore[0].n)
  })

  it.each([
    ['numbers', { username: 1, password: 2 }],
    ['a missing password', { username: 'alice' }],
    ['an empty object', {}],
    ['an array', ['alice', PASSWORD]],
    ['null values', { username: null, password: null }],
  ])('answers 400 for a body with %s', async (_label, body) => {
    const response = await login(body)
    expect(response.status).toBe(400)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('answers 400 for malformed JSON', async () => {
    const response = await server.request('POST', '/_api/login', undefined, {
      raw: '{"username": ',
      contentType: 'application/json',
    })
    expect(response.status).toBe(400)
  })

  it('keeps the account usable after a few bad passwords', async () => {
    await server.createUser('clumsy')
    for (let i = 0; i < 3; i++) expect((await login({ username: 'clumsy', password: 'nope' })).status).toBe(401)
    expect((await login({ username: 'clumsy', password: PASSWORD })).status).toBe(204)
  })
})

describe('GET /_api/me', () => {
  it('returns the user from the JWT cookie with @context /_api/contexts/User', async () => {
    const { jwt } = await loginCookies('alice')
    const response = await server.get('/_api/me', { headers: { cookie: `${JWT_COOKIE}=${jwt}` } })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      '@context': '/_api/contexts/User',
      '@id': `/_api/users/${userId}`,
      '@type': 'User',
      id: userId,
      username: 'alice',
      emailAddress: 'alice@example.com',
    })
    expect(response.headers.get('cache-control')).toContain('no-store')
  })

  it('returns the user from Authorization: Bearer', async () => {
    const { jwt } = await loginCookies('alice')
    const response = await server.get('/_api/me', { token: jwt })
    expect(response.status).toBe(200)
    expect(response.body['@context']).toBe('/_api/contexts/User')
    expect(response.body.username).toBe('alice')
  })

  it('expands ROLE_SUPER_ADMIN to ROLE_ADMIN, ROLE_USER and ROLE_ALLOWED_TO_SWITCH', async () => {
    const { jwt } = await loginCookies('root')
    const response = await server.get('/_api/me', { token: jwt })
    expect(response.body.id).toBe(superAdminId)
    expect([...response.body.roles].sort()).toEqual([
      'ROLE_ADMIN',
      'ROLE_ALLOWED_TO_SWITCH',
      'ROLE_SUPER_ADMIN',
      'ROLE_USER',
    ])
    // Only the assigned role is stored.
    const rows = await sql('SELECT value FROM _acb_users_roles WHERE parent_id = $1', [superAdminId])
    expect(rows.map((r) => r.value)).toEqual(['ROLE_SUPER_ADMIN'])
  })

  it('expands ROLE_ADMIN to include ROLE_USER, and ROLE_USER stays alone', async () => {
    const admin = await server.get('/_api/me', { token: (await loginCookies('boss')).jwt })
    expect([...admin.body.roles].sort()).toEqual(['ROLE_ADMIN', 'ROLE_USER'])
    const user = await server.get('/_api/me', { token: (await loginCookies('alice')).jwt })
    expect(user.body.roles).toEqual(['ROLE_USER'])
  })

  it('never serializes the password, its hash or salt', async () => {
    const { jwt } = await loginCookies('root')
    const response = await server.get('/_api/me', { token: jwt })
    const [stored] = await sql('SELECT hash, salt FROM _acb_users WHERE id = $1', [superAdminId])
    expect(stored.hash).toBeTruthy()
    for (const key of ['password', 'plainPassword', 'hash', 'salt', 'sessions', 'loginAttempts', 'lockUntil']) {
      expect(response.body).not.toHaveProperty(key)
    }
    expect(response.text).not.toContain(stored.hash)
    expect(response.text).not.toContain(stored.salt)
    expect(response.text).not.toContain(PASSWORD)
  })

  it('answers 401 to anonymous callers', async () => {
    const response = await server.get('/_api/me')
    expect(response.status).toBe(401)
  })
})

describe('token security', () => {
  let claims: Record<string, unknown>
  beforeAll(async () => {
    claims = decodeJwt((await loginCookies('alice')).jwt) as Record<string, unknown>
  })
  /** Claims of a super admin, as an attacker would forge them. */
  const forged = () => ({
    ...claims,
    sub: superAdminId,
    username: 'root',
    roles: ['ROLE_SUPER_ADMIN'],
    exp: Math.floor(Date.now() / 1000) + 600,
  })

  async function expectRefused(token: string) {
    const bearer = await server.get('/_api/me', { token })
    expect(bearer.status).toBe(401)
    const cookie = await server.get('/_api/me', { headers: { cookie: `${JWT_COOKIE}=${token}` } })
    expect(cookie.status).toBe(401)
    // A forged token never authorizes a write either.
    const write = await server.post('/_api/_/layouts', { reference: `forged-${Date.now()}` }, { token })
    expect(write.status).toBe(401)
  }

  it('refuses an unsigned token (alg "none" attack)', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      await expectRefused(`${b64url({ alg, typ: 'JWT' })}.${b64url(forged())}.`)
    }
  })

  it('refuses an HS256 token signed with the public key PEM as the secret (algorithm confusion attack)', async () => {
    const pem = readFileSync(process.env.JWT_PUBLIC_KEY!)
    const token = await new SignJWT(forged()).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new Uint8Array(pem))
    await expectRefused(token)
  })

  it('refuses a token signed with another RSA key (key substitution attack)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const token = await new SignJWT(forged()).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey)
    await expectRefused(token)
  })

  it('refuses a genuine token whose claims were edited (payload tampering attack)', async () => {
    const [header, , signature] = (await loginCookies('alice')).jwt.split('.')
    await expectRefused(`${header}.${b64url(forged())}.${signature}`)
  })

  it('refuses a token signed with our key but expired (replay of an expired token)', async () => {
    const keys = await loadJwtKeys(process.env)
    const now = Math.floor(Date.now() / 1000)
    const token = await new SignJWT({ username: 'alice', roles: ['ROLE_USER'] })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(keys.privateKey)
    await expectRefused(token)
  })

  it('refuses garbage in the cookie and in the header', async () => {
    await expectRefused('not.a.jwt')
  })

  it('accepts a token signed with our key (control for the cases above)', async () => {
    const keys = await loadJwtKeys(process.env)
    const token = await new SignJWT({ username: 'alice', roles: ['ROLE_USER'] })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(keys.privateKey)
    expect((await server.get('/_api/me', { token })).status).toBe(200)
  })
})

describe('POST /_api/logout', () => {
  it('clears both cookies and revokes the refresh token', async () => {
    const { jwt, refresh } = await loginCookies('alice')
    const hash = createHash('sha256').update(refresh).digest('hex')
    const response = await server.post('/_api/logout', undefined, {
      headers: { cookie: `${JWT_COOKIE}=${encodeURIComponent(jwt)}; ${REFRESH_COOKIE}=${encodeURIComponent(refresh)}` },
    })
    expect(response.status).toBe(204)
    const cookies = cookiesOf(response.headers)
    expect([...cookies.keys()].sort()).toEqual([JWT_COOKIE, REFRESH_COOKIE])
    const loginCookiePaths = cookiesOf((await login({ username: 'alice', password: PASSWORD })).headers)
    for (const name of [JWT_COOKIE, REFRESH_COOKIE]) {
      const cookie = cookies.get(name)!
      expect(cookie.value).toBe('')
      expect(cookie.attrs.get('max-age')).toBe('0')
      expect(Date.parse(String(cookie.attrs.get('expires')))).toBeLessThan(Date.now())
      // Same path as when set, or the browser keeps the old cookie.
      expect(cookie.attrs.get('path')).toBe(loginCookiePaths.get(name)!.attrs.get('path'))
      expect(cookie.attrs.get('httponly')).toBe(true)
      expect(cookie.attrs.get('secure')).toBe(true)
    }
    const [row] = await sql('SELECT revoked_at FROM _acb_refresh_tokens WHERE token_hash = $1', [hash])
    expect(row.revoked_at).not.toBeNull()
  })

  it('revokes only the presented refresh token', async () => {
    const kept = await loginCookies('alice')
    const ended = await loginCookies('alice')
    await server.post('/_api/logout', undefined, {
      headers: { cookie: `${REFRESH_COOKIE}=${encodeURIComponent(ended.refresh)}` },
    })
    const hashOf = (t: string) => createHash('sha256').update(t).digest('hex')
    const [keptRow] = await sql('SELECT revoked_at FROM _acb_refresh_tokens WHERE token_hash = $1', [
      hashOf(kept.refresh),
    ])
    const [endedRow] = await sql('SELECT revoked_at FROM _acb_refresh_tokens WHERE token_hash = $1', [
      hashOf(ended.refresh),
    ])
    expect(keptRow.revoked_at).toBeNull()
    expect(endedRow.revoked_at).not.toBeNull()
  })

  it('works without cookies (anonymous) and still clears them', async () => {
    const response = await server.post('/_api/logout')
    expect(response.status).toBe(204)
    expect(cookiesOf(response.headers).size).toBe(2)
  })
})

async function expiredJwt(sub: string): Promise<string> {
  const keys = await loadJwtKeys(process.env)
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ username: 'alice', roles: ['ROLE_USER'] })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(keys.privateKey)
}

describe('a stale JWT cookie does not block the session paths', () => {
  it('logs in while the browser still sends an expired JWT cookie', async () => {
    const response = await server.request(
      'POST',
      '/_api/login',
      { username: 'alice', password: PASSWORD },
      {
        contentType: 'application/json',
        headers: { cookie: `${JWT_COOKIE}=${await expiredJwt(userId)}` },
      },
    )
    expect(response.status).toBe(204)
    expect(cookiesOf(response.headers).has(JWT_COOKIE)).toBe(true)
  })

  it('logs out while the browser still sends an expired JWT cookie, revoking the refresh token', async () => {
    const { refresh } = await loginCookies('alice')
    const response = await server.post('/_api/logout', undefined, {
      headers: {
        cookie: `${JWT_COOKIE}=${await expiredJwt(userId)}; ${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`,
      },
    })
    expect(response.status).toBe(204)
    const [row] = await sql('SELECT revoked_at FROM _acb_refresh_tokens WHERE token_hash = $1', [
      createHash('sha256').update(refresh).digest('hex'),
    ])
    expect(row.revoked_at).not.toBeNull()
  })

  it('still refuses an expired JWT on other paths (401)', async () => {
    const response = await server.get('/_api/me', { headers: { cookie: `${JWT_COOKIE}=${await expiredJwt(userId)}` } })
    expect(response.status).toBe(401)
  })
})

describe('POST /_api/token/refresh', () => {
  const refreshWith = (cookie: string) => server.post('/_api/token/refresh', undefined, { headers: { cookie } })

  it('issues a new RS256 JWT cookie from the refresh cookie, even with an expired JWT cookie beside it', async () => {
    const { refresh } = await loginCookies('alice')
    const response = await refreshWith(
      `${JWT_COOKIE}=${await expiredJwt(userId)}; ${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`,
    )
    expect(response.status).toBe(204)
    const cookie = cookiesOf(response.headers).get(JWT_COOKIE)!
    expect(cookie.attrs.get('httponly')).toBe(true)
    expect(cookie.attrs.get('secure')).toBe(true)
    expect(cookie.attrs.get('max-age')).toBe('604800')
    expect(decodeProtectedHeader(cookie.value).alg).toBe('RS256')
    const claims = decodeJwt(cookie.value)
    expect(claims.sub).toBe(userId)
    expect(claims.exp! - claims.iat!).toBe(3600)
    const me = await server.get('/_api/me', { token: cookie.value })
    expect(me.status).toBe(200)
    expect(me.body.username).toBe('alice')
  })

  it('refuses a missing, unknown or revoked refresh token (401, no cookie)', async () => {
    expect((await refreshWith('')).status).toBe(401)
    const unknown = await refreshWith(`${REFRESH_COOKIE}=not-a-token`)
    expect(unknown.status).toBe(401)
    expect(unknown.headers.getSetCookie()).toEqual([])
    const { refresh } = await loginCookies('alice')
    await server.post('/_api/logout', undefined, {
      headers: { cookie: `${REFRESH_COOKIE}=${encodeURIComponent(refresh)}` },
    })
    expect((await refreshWith(`${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`)).status).toBe(401)
  })

  it('refuses an expired refresh token (401)', async () => {
    const { refresh } = await loginCookies('alice')
    await sql("UPDATE _acb_refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1", [
      createHash('sha256').update(refresh).digest('hex'),
    ])
    expect((await refreshWith(`${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`)).status).toBe(401)
  })

  it('refuses the refresh token of a user disabled since login (401)', async () => {
    const id = await server.createUser('soon-disabled')
    const { refresh } = await loginCookies('soon-disabled')
    await sql('UPDATE _acb_users SET enabled = false WHERE id = $1', [id])
    expect((await refreshWith(`${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`)).status).toBe(401)
  })

  it('puts the current roles in the new JWT', async () => {
    const id = await server.createUser('promoted')
    const { refresh } = await loginCookies('promoted')
    await sql("UPDATE _acb_users_roles SET value = 'ROLE_ADMIN' WHERE parent_id = $1", [id])
    const response = await refreshWith(`${REFRESH_COOKIE}=${encodeURIComponent(refresh)}`)
    expect(response.status).toBe(204)
    expect(decodeJwt(cookiesOf(response.headers).get(JWT_COOKIE)!.value).roles).toEqual(['ROLE_ADMIN'])
  })
})

describe('cookie SameSite from configuration', () => {
  let strict: TestServer
  beforeAll(async () => {
    strict = await startTestServer({ options: { session: { sameSite: 'strict' } } })
    await strict.createUser('carol')
  })
  afterAll(async () => {
    await strict?.close()
  })

  it('uses the configured SameSite value on both cookies', async () => {
    const response = await strict.post(
      '/_api/login',
      { username: 'carol', password: PASSWORD },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(204)
    const cookies = cookiesOf(response.headers)
    expect(cookies.get(JWT_COOKIE)!.attrs.get('samesite')).toBe('Strict')
    expect(cookies.get(REFRESH_COOKIE)!.attrs.get('samesite')).toBe('Strict')
  })
})

describe('login identifier', () => {
  it("is the username only: an email in the username field is refused (attack: a username equal to another account's email shadowing it)", async () => {
    const server = await startTestServer()
    try {
      await server.createUser('victim')
      const byEmail = await server.post(
        '/_api/login',
        { username: 'victim@example.com', password: PASSWORD },
        { contentType: 'application/json' },
      )
      expect(byEmail.status).toBe(401)
      const byUsername = await server.post(
        '/_api/login',
        { username: 'victim', password: PASSWORD },
        { contentType: 'application/json' },
      )
      expect(byUsername.status).toBe(204)
    } finally {
      await server.close()
    }
  })
})
