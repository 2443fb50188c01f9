import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { CollectionConfig } from 'payload'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * Who reaches the admin panel: ROLE_ADMIN and above (Payload asks the users
 * collection's access.admin, and reports it as canAccessAdmin). A ROLE_USER
 * may sign in (the contract's session) but the panel refuses it with a
 * heading that says why. The first-user form hides roles and enabled (the
 * first user is saved as an enabled super admin whatever they would show).
 */

let server: TestServer

async function payloadToken(username: string): Promise<string> {
  const login = await server.request(
    'POST',
    '/api/users/login',
    { username, password: PASSWORD },
    { contentType: 'application/json' },
  )
  expect(login.status).toBe(200)
  return login.body.token
}

async function canAccessAdmin(token?: string): Promise<boolean> {
  const response = await server.get('/api/access', { headers: token ? { authorization: `JWT ${token}` } : {} })
  expect(response.status).toBe(200)
  // (Anonymous: Payload leaves canAccessAdmin out.)
  return response.body.canAccessAdmin === true
}

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('the admin panel is for ROLE_ADMIN and above', () => {
  it('canAccessAdmin: false for anonymous and ROLE_USER, true for ROLE_ADMIN and ROLE_SUPER_ADMIN', async () => {
    await server.createUser('plain_user', ['ROLE_USER'])
    await server.createUser('an_admin', ['ROLE_ADMIN'])
    await server.createUser('a_super_admin', ['ROLE_SUPER_ADMIN'])
    expect(await canAccessAdmin()).toBe(false)
    expect(await canAccessAdmin(await payloadToken('plain_user'))).toBe(false)
    expect(await canAccessAdmin(await payloadToken('an_admin'))).toBe(true)
    expect(await canAccessAdmin(await payloadToken('a_super_admin'))).toBe(true)
  })

  it('the refusal page says why, in words', () => {
    const translations = server.payload.config.i18n.translations as Record<
      string,
      Record<string, Record<string, string>>
    >
    expect(translations.en!.error!.unauthorizedAdmin).toMatch(/may not use the admin panel.*ROLE_ADMIN/)
  })
})

describe('the first-user form', () => {
  const field = (name: string) =>
    (server.payload.collections['users' as never] as unknown as { config: CollectionConfig }).config.fields.find(
      (f) => 'name' in f && f.name === name,
    ) as { admin?: { condition?: (...args: unknown[]) => boolean } }

  it('hides roles and enabled while nobody is signed in (the form would show values that are not saved)', () => {
    for (const name of ['roles', 'enabled']) {
      const condition = field(name).admin?.condition
      expect(condition?.({}, {}, { user: null })).toBe(false)
      expect(condition?.({}, {}, { user: { id: 'x' } })).toBe(true)
    }
  })

  it('saves the first user as an enabled super admin, whatever roles and enabled the request carries', async () => {
    // (This server already has users: first-register is refused; the rule itself is checked on an empty users table.)
    await server.sql('DELETE FROM _acb_refresh_tokens')
    await server.sql('DELETE FROM _acb_users')
    const response = await server.request(
      'POST',
      '/api/users/first-register',
      {
        username: 'owner',
        email: 'owner@example.com',
        password: PASSWORD,
        'confirm-password': PASSWORD,
        roles: ['ROLE_USER'],
        enabled: false,
      },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(200)
    const [row] = await server.sql("SELECT enabled, id FROM _acb_users WHERE username = 'owner'")
    expect(row.enabled).toBe(true)
    const roles = await server.sql('SELECT value FROM _acb_users_roles WHERE parent_id = $1', [row.id])
    expect(roles.map((r: { value: string }) => r.value)).toEqual(['ROLE_SUPER_ADMIN'])
  })
})
