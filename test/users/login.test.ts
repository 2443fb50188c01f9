import { beforeAll, describe, expect, it } from '@jest/globals'
import {
  cookieHeader,
  cookiesOf,
  expiredJwt,
  JWT_COOKIE,
  loginSession,
  REFRESH_COOKIE,
  usableTokens,
} from '../support/sessionCookies'
import { useMailSite } from '../support/mail'
import { PASSWORD } from '../support/server'
import { linkParts, theLink } from '../support/emailFlows'

/**
 * The login path's user checker (contract, "Roles and access"): disabled
 * users are refused, unverified users too with denyUnverifiedLogin (at
 * login and when a session is refreshed), and a refused login does not
 * tell whether the username exists. (That it also takes as long is
 * measured by the bench: bench/timing.ts.)
 */

const { server, smtp } = useMailSite({
  user: { emailVerification: { denyUnverifiedLogin: true }, emailLinks: { defaultOrigin: 'https://front.example' } },
})

const login = (username: string, password = PASSWORD) =>
  server.post('/_api/login', { username, password }, { contentType: 'application/json' })

beforeAll(async () => {
  await server.createUser('verified')
  await server.createUser('unverified', ['ROLE_USER'], { emailAddressVerified: false })
  await server.createUser('disabled', ['ROLE_USER'], { enabled: false })
})

describe('user checker', () => {
  it('logs in a verified, enabled user (control)', async () => {
    expect((await login('verified')).status).toBe(204)
  })

  it('refuses a disabled user with the right password (401, no cookie)', async () => {
    const response = await login('disabled')
    expect(response.status).toBe(401)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('refuses an unverified user with denyUnverifiedLogin (401, no cookie, no refresh token stored)', async () => {
    const response = await login('unverified')
    expect(response.status).toBe(401)
    expect(response.body.detail).toMatch(/verif/i)
    expect(response.headers.getSetCookie()).toEqual([])
    const [{ n }] = await server.sql(
      "SELECT count(*)::int AS n FROM _acb_refresh_tokens t JOIN _acb_users u ON u.id = t.user_id WHERE u.username = 'unverified'",
    )
    expect(n).toBe(0)
  })

  it('says nothing about verification to a caller with a wrong password (401 invalid credentials)', async () => {
    const response = await login('unverified', 'wrong password')
    expect(response.status).toBe(401)
    expect(response.body.detail).toBe('Invalid credentials.')
  })

  it('lets the user in once the address is verified', async () => {
    await server.sql("UPDATE _acb_users SET email_address_verified = true WHERE username = 'unverified'")
    expect((await login('unverified')).status).toBe(204)
  })
})

describe('username enumeration', () => {
  it('answers an unknown username exactly like a wrong password (same status and body)', async () => {
    const unknown = await login('nobody_here', 'not the password')
    const wrong = await login('verified', 'not the password')
    expect(unknown.status).toBe(401)
    expect(unknown.body).toEqual(wrong.body)
  })
})

describe('unverified users (denyUnverifiedLogin)', () => {
  it('a direct address change by the account holder mails a verification link to the new address, which verifies it', async () => {
    const id = await server.createUser('mover')
    const token = await server.login('mover')
    const response = await server.patch(`/_api/users/${id}`, { emailAddress: 'mover.new@example.com' }, { token })
    expect(response.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('mover.new@example.com'))
    const { username, token: verification } = linkParts(theLink(mail))
    expect((await login('mover')).status).toBe(401)
    expect((await server.get(`/_api/verify-email/${username}/${encodeURIComponent(verification)}`)).status).toBe(200)
    expect(
      (await server.sql('SELECT email_address_verified FROM _acb_users WHERE id = $1', [id]))[0].email_address_verified,
    ).toBe(true)
  })

  it('an unverified session kept alive by refreshing (login check bypass): 401 on /token/refresh and transparently, cookies cleared, token revoked', async () => {
    const id = await server.createUser('drifter')
    const direct = await loginSession(server, 'drifter')
    const other = await loginSession(server, 'drifter')
    await server.sql('UPDATE _acb_users SET email_address_verified = false WHERE id = $1', [id])

    const refused = await server.post('/_api/token/refresh', undefined, {
      headers: { cookie: cookieHeader({ refresh: direct.refresh }) },
    })
    expect(refused.status).toBe(401)
    const cleared = cookiesOf(refused.headers)
    expect([cleared.get(JWT_COOKIE)?.value, cleared.get(REFRESH_COOKIE)?.value]).toEqual(['', ''])
    expect(await usableTokens(server, id)).toBe(1)

    const transparent = await server.get('/_api/me', {
      headers: { cookie: cookieHeader({ jwt: await expiredJwt(id, 'drifter'), refresh: other.refresh }) },
    })
    expect(transparent.status).toBe(401)
    expect(cookiesOf(transparent.headers).get(REFRESH_COOKIE)?.value).toBe('')
    expect(await usableTokens(server, id)).toBe(0)
  })
})

describe('the declared input of POST /login (session/inputs.ts)', () => {
  it('refuses a body without both strings with a 400 before any user is looked up', async () => {
    for (const body of [
      { username: 'verified' },
      { username: 'verified', password: 3 },
      { username: '', password: 'x' },
    ]) {
      const refused = await server.post('/_api/login', body, { contentType: 'application/json' })
      expect(refused.status).toBe(400)
      expect(refused.body.detail).toBe('The body must hold "username" and "password" strings.')
      expect(refused.headers.get('set-cookie')).toBeNull()
    }
  })
})
