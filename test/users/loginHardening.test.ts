import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { closedPasswordEndpoints, firstRegisterOpen } from '../../plugins/cwa/dist/features/users/closedEndpoints.js'
import { LOGIN_THROTTLE } from '../../plugins/cwa/dist/features/users/throttle.js'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { createApp } from '../../plugins/cwa/dist/server/express.js'
import { incomingFromFetch } from '../../plugins/cwa/dist/server/handler.js'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * Issue 11, hardening of the login on both APIs (`POST /_api/login` and
 * Payload's `POST /api/users/login`): one answer for every refusal, the
 * disabled-user check of the REST login itself, the per-client and
 * per-account throttle in PostgreSQL (429 + Retry-After) before the
 * account lock, and Payload's first-register closed in production.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
  await server.createUser('known', ['ROLE_USER'])
  await server.createUser('locked', ['ROLE_USER'])
  await server.createUser('off', ['ROLE_ADMIN'], { enabled: false })
  await server.sql(
    "UPDATE _acb_users SET login_attempts = 10, lock_until = now() + interval '1 hour' WHERE username = 'locked'",
  )
})
afterAll(async () => {
  await server?.close()
})

/** Each test speaks from its own client address (the test server trusts X-Forwarded-For from loopback, as TRUST_PROXY's default does). */
let nextAddress = 10
const newClient = () => `198.51.100.${nextAddress++}`

const restLogin = (username: string, password: string, client = newClient()) =>
  server.request(
    'POST',
    '/api/users/login',
    { username, password },
    { contentType: 'application/json', headers: { 'x-forwarded-for': client } },
  )
const apiLogin = (username: string, password: string, client = newClient()) =>
  server.post(
    '/_api/login',
    { username, password },
    { contentType: 'application/json', headers: { 'x-forwarded-for': client } },
  )

describe('POST /api/users/login refusals', () => {
  it('security: known user with a wrong password, unknown user and locked account get one and the same answer (user enumeration attack)', async () => {
    const answers = await Promise.all([
      restLogin('known', 'wrong password'),
      restLogin('nobody-here', 'wrong password'),
      restLogin('locked', 'wrong password'),
    ])
    for (const answer of answers) expect(answer.status).toBe(401)
    const bodies = answers.map((answer) => JSON.stringify(answer.body))
    expect(new Set(bodies).size).toBe(1)
    expect(bodies[0]).toContain('Invalid credentials.')
  })

  it('security: a disabled user with the right password is refused by the REST login itself (401, no token, no cookie)', async () => {
    const response = await restLogin('off', PASSWORD)
    expect(response.status).toBe(401)
    expect(JSON.stringify(response.body)).toContain('Invalid credentials.')
    expect(response.body.token).toBeUndefined()
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it('the right password of an enabled user logs in (control)', async () => {
    const response = await restLogin('known', PASSWORD)
    expect(response.status).toBe(200)
    expect(response.body.token).toBeTruthy()
  })
})

describe('login throttle', () => {
  const { limit: perAccount } = LOGIN_THROTTLE.perAccountAndClient

  for (const [name, login] of [
    ['/_api/login', apiLogin],
    ['/api/users/login', restLogin],
  ] as const) {
    it(`security: ${name}: password guessing on one account from one client is throttled (429 + Retry-After) before the account lock, and the owner elsewhere still logs in`, async () => {
      const username = `victim-${name.length}`
      await server.createUser(username, ['ROLE_USER'])
      const attacker = newClient()
      for (let i = 0; i < perAccount; i++) expect((await login(username, `guess ${i}`, attacker)).status).toBe(401)
      const throttled = await login(username, `guess ${perAccount}`, attacker)
      expect(throttled.status).toBe(429)
      const retryAfter = Number(throttled.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThan(0)
      expect(retryAfter).toBeLessThanOrEqual(LOGIN_THROTTLE.perAccountAndClient.windowSeconds)
      // Throttled before any password is checked: even the right one waits, and nothing more was counted on the account.
      expect((await login(username, PASSWORD, attacker)).status).toBe(429)
      const [row] = await server.sql(
        'SELECT coalesce(login_attempts, 0)::int AS n, lock_until FROM _acb_users WHERE username = $1',
        [username],
      )
      expect(row.n).toBe(perAccount)
      expect(row.lock_until).toBeNull()
      // The owner, from another address, is not throttled and logs in.
      expect((await login(username, PASSWORD, newClient())).status).toBe(name === '/_api/login' ? 204 : 200)
    })
  }

  it('security: one client spraying passwords over many accounts is throttled per address (429 + Retry-After), other clients are not', async () => {
    const sprayer = newClient()
    const { limit } = LOGIN_THROTTLE.perClient
    for (let i = 0; i < limit; i++) expect((await apiLogin(`sprayed-${i}`, 'Winter2026!', sprayer)).status).toBe(401)
    const throttled = await apiLogin('known', PASSWORD, sprayer)
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await restLogin('known', PASSWORD, sprayer)).status).toBe(429)
    expect((await apiLogin('known', PASSWORD, newClient())).status).toBe(204)
  })

  it('security: an account locked by guesses from many addresses (lockout attack) still takes the right password from a clean address, on both logins', async () => {
    for (const [username, login, ok] of [
      ['lockedout1', apiLogin, 204],
      ['lockedout2', restLogin, 200],
    ] as const) {
      await server.createUser(username, ['ROLE_USER'])
      // Two attackers, five guesses each: Payload's lock (10 failures) closes the account.
      for (const attacker of [newClient(), newClient()])
        for (let i = 0; i < perAccount; i++) await login(username, `guess ${i}`, attacker)
      const [row] = await server.sql('SELECT lock_until > now() AS locked FROM _acb_users WHERE username = $1', [
        username,
      ])
      expect(row.locked).toBe(true)
      // A third address's wrong guess is refused like any other and leaves the lock.
      const third = newClient()
      const wrong = await login(username, 'still guessing', third)
      expect(wrong.status).toBe(401)
      expect(JSON.stringify(wrong.body)).toContain('Invalid credentials.')
      // ... and that address is then held by the lock, even with the right password.
      expect((await login(username, PASSWORD, third)).status).toBe(401)
      // The owner, from an address with no failure on the account, logs in; the lock is lifted.
      expect((await login(username, PASSWORD, newClient())).status).toBe(ok)
      const [after] = await server.sql(
        'SELECT lock_until, coalesce(login_attempts, 0)::int AS n FROM _acb_users WHERE username = $1',
        [username],
      )
      expect(after.lock_until).toBeNull()
      expect(after.n).toBe(0)
    }
  })

  it('a successful login clears the failures of that account from that client (a typo is not held against the owner)', async () => {
    await server.createUser('typo', ['ROLE_USER'])
    const owner = newClient()
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < perAccount - 1; i++) expect((await apiLogin('typo', 'typo', owner)).status).toBe(401)
      expect((await apiLogin('typo', PASSWORD, owner)).status).toBe(204)
    }
  })

  it('the counters live in PostgreSQL (shared by every instance), never with the username in clear', async () => {
    const rows = await server.sql('SELECT key FROM _acb_throttle')
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.some((r) => r.key.includes('victim'))).toBe(false)
  })

  it('security: a client cannot pick its address with X-Forwarded-For unless it comes through a trusted proxy (Fetch adapter header replaced)', async () => {
    const response = await server.post(
      '/_api/login',
      { username: 'known', password: 'wrong' },
      { contentType: 'application/json', headers: { 'x-cwa-client-address': '203.0.113.1' } },
    )
    expect(response.status).toBe(401)
    const rows = await server.sql("SELECT key FROM _acb_throttle WHERE key LIKE '%203.0.113.1%'")
    expect(rows).toEqual([])
  })
})

describe('the client address the throttles key on', () => {
  it('security: X-Forwarded-For from a client that is not a configured proxy is ignored (address spoofing to dodge the throttle)', async () => {
    const env = process.env as Record<string, string | undefined>
    const previous = env.TRUST_PROXY
    env.TRUST_PROXY = '10.9.8.7' // a proxy that is not this test
    let app: Server | undefined
    try {
      const listening = createApp({ payload: server.payload })
      app = await new Promise<Server>((resolve) => {
        const s = listening.listen(0, '127.0.0.1', () => resolve(s))
      })
      const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`
      await server.sql('DELETE FROM _acb_throttle')
      for (const spoofed of ['203.0.113.50', '203.0.113.51']) {
        const response = await fetch(`${base}/_api/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': spoofed },
          body: JSON.stringify({ username: 'known', password: 'wrong' }),
        })
        expect(response.status).toBe(401)
      }
      const keys = (await server.sql("SELECT key, hits FROM _acb_throttle WHERE key LIKE 'login:client:%'")) as Array<{
        key: string
        hits: number
      }>
      expect(keys).toEqual([{ key: 'login:client:127.0.0.1', hits: 2 }])
    } finally {
      if (previous === undefined) delete env.TRUST_PROXY
      else env.TRUST_PROXY = previous
      await new Promise((resolve) => app?.close(resolve))
    }
  })

  it('security: the Fetch handler replaces a client-sent address header with the last X-Forwarded-For entry (the one the nearest proxy added)', () => {
    const forged = new Request('http://localhost/_api/login', {
      headers: { 'x-cwa-client-address': '1.2.3.4', 'x-forwarded-for': '5.6.7.8, 192.0.2.9' },
    })
    expect(incomingFromFetch(forged).headers.get('x-cwa-client-address')).toBe('192.0.2.9')
    const bare = new Request('http://localhost/_api/login', { headers: { 'x-cwa-client-address': '1.2.3.4' } })
    expect(incomingFromFetch(bare).headers.get('x-cwa-client-address')).toBeNull()
  })
})

describe("Payload's first-register", () => {
  it('security: is closed in production (first anonymous visitor becomes super admin attack): 404 pointing to cwa:user:create', async () => {
    expect(firstRegisterOpen({ NODE_ENV: 'production' } as NodeJS.ProcessEnv)).toBe(false)
    const env = process.env as Record<string, string | undefined>
    const previous = env.NODE_ENV
    env.NODE_ENV = 'production'
    let endpoints
    try {
      endpoints = closedPasswordEndpoints('/_api')
    } finally {
      env.NODE_ENV = previous
    }
    const closed = endpoints.find((e) => e.path === '/first-register')
    expect(closed?.method).toBe('post')
    const response = await (closed!.handler as (req: unknown) => Promise<Response> | Response)({})
    expect(response.status).toBe(404)
    expect(JSON.stringify(await response.json())).toContain('cwa:user:create')
  })

  it('stays open in development and tests (the README quick start)', () => {
    expect(firstRegisterOpen({ NODE_ENV: 'development' } as NodeJS.ProcessEnv)).toBe(true)
    expect(firstRegisterOpen({ NODE_ENV: 'test' } as NodeJS.ProcessEnv)).toBe(true)
    expect(firstRegisterOpen({} as NodeJS.ProcessEnv)).toBe(true)
    expect(closedPasswordEndpoints('/_api').some((e) => e.path === '/first-register')).toBe(false)
  })

  it('security: on this (non-production) site with users, first-register grants nothing to an anonymous caller', async () => {
    const response = await server.request(
      'POST',
      '/api/users/first-register',
      { username: 'intruder', email: 'intruder@example.com', password: PASSWORD },
      { contentType: 'application/json' },
    )
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(await server.sql("SELECT id FROM _acb_users WHERE username = 'intruder'")).toEqual([])
  })
})
