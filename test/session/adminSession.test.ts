import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { decodeJwt, SignJWT } from 'jose'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { startTestServer, type TestServer } from '../support/server'
import {
  cookieHeader,
  cookiesOf,
  expiredJwt,
  JWT_COOKIE,
  loginSession,
  REFRESH_COOKIE,
  sql,
} from '../support/sessionCookies'

/**
 * Payload's admin panel accepts the JSON-LD API's session: the JWT cookie
 * set by POST /_api/login authenticates Payload's own REST API (/api), which
 * is what the admin panel runs on (issue 3, "Sessions").
 */

let server: TestServer
let editorId: string
let userId: string

beforeAll(async () => {
  server = await startTestServer()
  editorId = await server.createUser('editor', ['ROLE_ADMIN'])
  userId = await server.createUser('reader', ['ROLE_USER'])
})
afterAll(async () => {
  await server?.close()
})

/** GET on Payload's REST API with the JSON-LD session's JWT cookie. */
const payloadGet = (path: string, jwt?: string, headers: Record<string, string> = {}) =>
  server.get(path, {
    headers: { accept: 'application/json', ...(jwt ? { cookie: cookieHeader({ jwt }) } : {}), ...headers },
  })

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

describe('Payload REST with the JSON-LD session cookie', () => {
  it('GET /api/users/me returns the user logged in through POST /_api/login', async () => {
    const { jwt } = await loginSession(server, 'editor')
    const response = await payloadGet('/api/users/me', jwt)
    expect(response.status).toBe(200)
    expect(response.body.user).toMatchObject({
      id: editorId,
      username: 'editor',
      email: 'editor@example.com',
      roles: ['ROLE_ADMIN'],
    })
    expect(response.body.user._strategy).toBe('cwa-api-session')
    for (const key of ['hash', 'salt', 'password']) expect(response.body.user).not.toHaveProperty(key)
  })

  it('without the cookie, /api/users/me has no user (control)', async () => {
    const response = await payloadGet('/api/users/me')
    expect(response.status).toBe(200)
    expect(response.body.user).toBeNull()
  })

  it('lets an admin into the admin panel and keeps a ROLE_USER out (GET /api/access)', async () => {
    const admin = await payloadGet('/api/access', (await loginSession(server, 'editor')).jwt)
    expect(admin.status).toBe(200)
    expect(admin.body.canAccessAdmin).toBe(true)
    const reader = await payloadGet('/api/access', (await loginSession(server, 'reader')).jwt)
    expect(reader.body.canAccessAdmin ?? false).toBe(false)
    const anonymous = await payloadGet('/api/access')
    expect(anonymous.body.canAccessAdmin ?? false).toBe(false)
  })

  it('reads the user from the database: a user disabled since login is refused, changed roles apply', async () => {
    const id = await server.createUser('temp-admin', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'temp-admin')
    expect((await payloadGet('/api/access', jwt)).body.canAccessAdmin).toBe(true)
    await sql(server, "UPDATE _acb_users_roles SET value = 'ROLE_USER' WHERE parent_id = $1", [id])
    expect((await payloadGet('/api/access', jwt)).body.canAccessAdmin ?? false).toBe(false)
    await sql(server, 'UPDATE _acb_users SET enabled = false WHERE id = $1', [id])
    expect((await payloadGet('/api/users/me', jwt)).body.user).toBeNull()
  })

  it('refuses the token of a deleted user', async () => {
    const id = await server.createUser('gone', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'gone')
    await server.payload.delete({ collection: 'users', id })
    expect((await payloadGet('/api/users/me', jwt)).body.user).toBeNull()
  })
})

describe('forged tokens get no admin session', () => {
  let claims: Record<string, unknown>
  beforeAll(async () => {
    claims = decodeJwt((await loginSession(server, 'reader')).jwt) as Record<string, unknown>
  })
  /** An admin's identity, as an attacker would claim it. */
  const forged = () => ({
    ...claims,
    sub: editorId,
    username: 'editor',
    roles: ['ROLE_ADMIN'],
    exp: Math.floor(Date.now() / 1000) + 600,
  })

  async function expectRefused(jwt: string) {
    const me = await payloadGet('/api/users/me', jwt)
    expect(me.body.user).toBeNull()
    expect((await payloadGet('/api/access', jwt)).body.canAccessAdmin ?? false).toBe(false)
  }

  it('refuses an unsigned token (alg "none" attack)', async () => {
    await expectRefused(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(forged())}.`)
  })

  it('refuses an HS256 token signed with the public key PEM as the secret (algorithm confusion attack)', async () => {
    const pem = readFileSync(process.env.JWT_PUBLIC_KEY!)
    await expectRefused(
      await new SignJWT(forged()).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new Uint8Array(pem)),
    )
  })

  it("refuses an HS256 token signed with Payload's own secret (algorithm confusion attack)", async () => {
    const secret = new TextEncoder().encode(server.payload.secret)
    await expectRefused(await new SignJWT(forged()).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret))
  })

  it('refuses a token signed with another RSA key (key substitution attack)', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
    await expectRefused(await new SignJWT(forged()).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey))
  })

  it('refuses a genuine token whose subject was changed to an admin (payload tampering attack)', async () => {
    const [header, , signature] = (await loginSession(server, 'reader')).jwt.split('.')
    await expectRefused(`${header}.${b64url(forged())}.${signature}`)
  })

  it('refuses an expired token signed with our key (replay of an expired token)', async () => {
    await expectRefused(await expiredJwt(editorId, 'editor', ['ROLE_ADMIN']))
  })

  it('accepts a token signed with our key (control for the cases above)', async () => {
    const keys = await loadJwtKeys(process.env)
    const jwt = await new SignJWT(forged()).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(keys.privateKey)
    expect((await payloadGet('/api/users/me', jwt)).body.user?.id).toBe(editorId)
  })
})

describe("Payload's cross-site rule applies to the cookie (cross-site request forgery)", () => {
  it('with a csrf allow-list, ignores the cookie on requests from another origin', async () => {
    const { jwt } = await loginSession(server, 'editor')
    const config = server.payload.config as { csrf: string[] }
    const previous = config.csrf
    config.csrf = ['https://admin.example.com']
    try {
      expect((await payloadGet('/api/users/me', jwt, { origin: 'https://evil.example.net' })).body.user).toBeNull()
      expect((await payloadGet('/api/users/me', jwt, { 'sec-fetch-site': 'cross-site' })).body.user).toBeNull()
      expect((await payloadGet('/api/users/me', jwt, { origin: 'https://admin.example.com' })).body.user?.id).toBe(
        editorId,
      )
      expect((await payloadGet('/api/users/me', jwt, { 'sec-fetch-site': 'same-origin' })).body.user?.id).toBe(editorId)
    } finally {
      config.csrf = previous
    }
  })
})

describe('logging out of the admin panel', () => {
  it('POST /api/users/logout clears the JSON-LD session cookies too', async () => {
    const { jwt } = await loginSession(server, 'editor')
    const response = await server.post('/api/users/logout', undefined, {
      headers: { accept: 'application/json', cookie: cookieHeader({ jwt }) },
    })
    expect(response.status).toBe(200)
    const cookies = cookiesOf(response.headers)
    const jwtCookie = cookies.get(JWT_COOKIE)!
    const refreshCookie = cookies.get(REFRESH_COOKIE)!
    expect(jwtCookie.value).toBe('')
    expect(jwtCookie.attrs.get('max-age')).toBe('0')
    expect(jwtCookie.attrs.get('path')).toBe('/')
    expect(refreshCookie.value).toBe('')
    expect(refreshCookie.attrs.get('max-age')).toBe('0')
    expect(refreshCookie.attrs.get('path')).toBe('/_api')
  })

  it('security: a copied refresh cookie does not outlive an admin panel logout (refresh answers 401)', async () => {
    const { jwt, refresh } = await loginSession(server, 'editor')
    const logout = await server.post('/api/users/logout', undefined, {
      headers: { accept: 'application/json', cookie: cookieHeader({ jwt }) },
    })
    expect(logout.status).toBe(200)
    const replay = await server.post('/_api/token/refresh', undefined, {
      headers: { cookie: cookieHeader({ refresh }) },
    })
    expect(replay.status).toBe(401)
  })
})

it('leaves ROLE_USER reading its own account only (access rules unchanged under the strategy)', async () => {
  const { jwt } = await loginSession(server, 'reader')
  const list = await payloadGet('/api/users', jwt)
  expect(list.status).toBe(200)
  expect(list.body.docs.map((d: { id: string }) => d.id)).toEqual([userId])
})
