import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * The login path's user checker (contract, "Roles and access"): disabled
 * users are refused, unverified users too with denyUnverifiedLogin, and a
 * refused login does not tell whether the username exists.
 */

let server: TestServer

const login = (username: string, password = PASSWORD) =>
  server.post('/_api/login', { username, password }, { contentType: 'application/json' })

beforeAll(async () => {
  server = await startTestServer({ options: { user: { emailVerification: { denyUnverifiedLogin: true } } } })
  await server.createUser('verified')
  await server.createUser('unverified', ['ROLE_USER'], { emailAddressVerified: false })
  await server.createUser('disabled', ['ROLE_USER'], { enabled: false })
})
afterAll(async () => {
  await server?.close()
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
  async function timed(username: string): Promise<{ ms: number; status: number; body: unknown }> {
    const started = performance.now()
    const response = await login(username, 'not the password')
    return { ms: performance.now() - started, status: response.status, body: response.body }
  }

  it('answers an unknown username exactly like a wrong password (same status and body)', async () => {
    const unknown = await timed('nobody_here')
    const wrong = await timed('verified')
    expect(unknown.status).toBe(401)
    expect(unknown.body).toEqual(wrong.body)
  })

  it('spends a password hash on an unknown username too (timing attack revealing which usernames exist)', async () => {
    // Loose on purpose: the unknown-user path must cost the same order of time, not a few milliseconds.
    const unknown: number[] = []
    const wrong: number[] = []
    for (let i = 0; i < 3; i++) {
      unknown.push((await timed(`ghost_${i}`)).ms)
      wrong.push((await timed('verified')).ms)
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5)
  })
})
