import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import {
  cookieHeader,
  cookiesOf,
  expiredJwt,
  loginSession,
  REFRESH_COOKIE,
  tokenState,
  usableTokens,
} from '../support/sessionCookies'

/**
 * A password change ends the user's other sessions (their refresh tokens
 * are revoked) and keeps the session that made the change.
 */

let server: TestServer

const refresh = (token: string) =>
  server.post('/_api/token/refresh', undefined, { headers: { cookie: cookieHeader({ refresh: token }) } })

beforeAll(async () => {
  server = await startTestServer()
  await server.createUser('root', ['ROLE_SUPER_ADMIN'])
})
afterAll(async () => {
  await server?.close()
})

describe('password change', () => {
  it('revokes the refresh tokens of the other sessions (stolen session kept alive after a password change), keeping the current one', async () => {
    const id = await server.createUser('carol')
    const current = await loginSession(server, 'carol')
    const laptop = await loginSession(server, 'carol')
    const phone = await loginSession(server, 'carol')
    expect(await usableTokens(server, id)).toBe(3)

    const response = await server.patch(
      `/_api/users/${id}`,
      { plainPassword: 'carol changed it 99' },
      { headers: { cookie: cookieHeader(current) } },
    )
    expect(response.status).toBe(200)

    expect(await tokenState(server, laptop.refresh)).toBe('ended')
    expect(await tokenState(server, phone.refresh)).toBe('ended')
    expect((await refresh(laptop.refresh)).status).toBe(401)
    expect((await refresh(phone.refresh)).status).toBe(401)
    expect(await tokenState(server, current.refresh)).toBe('usable')
    expect((await refresh(current.refresh)).status).toBe(204)
  })

  it('keeps the current session when its JWT expired and was refreshed on the very request that changes the password', async () => {
    const id = await server.createUser('gus')
    const current = await loginSession(server, 'gus')
    const other = await loginSession(server, 'gus')
    const stale = await expiredJwt(id, 'gus')
    const response = await server.patch(
      `/_api/users/${id}`,
      { plainPassword: 'gus changed it 31' },
      { headers: { cookie: cookieHeader({ jwt: stale, refresh: current.refresh }) } },
    )
    expect(response.status).toBe(200)
    const successor = cookiesOf(response.headers).get(REFRESH_COOKIE)!.value
    expect(await tokenState(server, successor)).toBe('usable')
    expect(await tokenState(server, other.refresh)).toBe('ended')
    expect((await refresh(successor)).status).toBe(204)
  })

  it('keeps the sessions when the write changes no password (control)', async () => {
    const id = await server.createUser('dave')
    const current = await loginSession(server, 'dave')
    const other = await loginSession(server, 'dave')
    expect(
      (await server.patch(`/_api/users/${id}`, { username: 'dave2' }, { headers: { cookie: cookieHeader(current) } }))
        .status,
    ).toBe(200)
    expect(await tokenState(server, other.refresh)).toBe('usable')
  })

  it("ends every session of the user when a super admin sets the user's password", async () => {
    const id = await server.createUser('erin')
    const session = await loginSession(server, 'erin')
    const rootSession = await loginSession(server, 'root')
    const response = await server.patch(
      `/_api/users/${id}`,
      { plainPassword: 'set by the admin 77' },
      { headers: { cookie: cookieHeader(rootSession) } },
    )
    expect(response.status).toBe(200)
    expect(await tokenState(server, session.refresh)).toBe('ended')
    expect(await tokenState(server, rootSession.refresh)).toBe('usable')
  })

  it('keeps nothing but the own session even with a Bearer JWT: without a refresh cookie every refresh token ends', async () => {
    const id = await server.createUser('fay')
    const session = await loginSession(server, 'fay')
    expect(
      (await server.patch(`/_api/users/${id}`, { plainPassword: 'fay new pass 12' }, { token: session.jwt })).status,
    ).toBe(200)
    expect(await usableTokens(server, id)).toBe(0)
  })
})
