import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD, startTestServer, type TestResponse, type TestServer } from '../support/server'

/**
 * The user resource (service contract, "User" and "Session and users"):
 * serialization per caller, roles expansion, the write-only hashed
 * password, fields only a super admin writes, and uniqueness, all through
 * HTTP on the default options (registration closed).
 */

let server: TestServer
let aliceId: string
let bobId: string
let rootId: string
let alice: string
let admin: string
let root: string

// _metadata: on every resource (issue 15), users included.
const USER_KEYS = [
  '@context',
  '@id',
  '@type',
  'id',
  'username',
  'emailAddress',
  'roles',
  'emailAddressVerified',
  'newEmailAddress',
  '_metadata',
]

const row = async (id: string) => (await server.sql('SELECT * FROM _acb_users WHERE id = $1', [id]))[0]
const storedRoles = async (id: string) =>
  (await server.sql('SELECT value FROM _acb_users_roles WHERE parent_id = $1 ORDER BY value', [id])).map((r) => r.value)

function expectStatus(response: TestResponse, status: number) {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${response.text.slice(0, 400)}`)
}

beforeAll(async () => {
  server = await startTestServer()
  aliceId = await server.createUser('alice')
  bobId = await server.createUser('bob')
  rootId = await server.createUser('root', ['ROLE_SUPER_ADMIN'])
  await server.createUser('boss', ['ROLE_ADMIN'])
  // bob has a session like the others, though no test needs its token
  ;[alice, , admin, root] = await Promise.all(['alice', 'bob', 'boss', 'root'].map((u) => server.login(u)))
})
afterAll(async () => {
  await server?.close()
})

describe('serialization per caller', () => {
  it('shows the account holder their user without enabled, and never a password', async () => {
    const response = await server.get(`/_api/users/${aliceId}`, { token: alice })
    expectStatus(response, 200)
    expect(Object.keys(response.body).sort()).toEqual([...USER_KEYS].sort())
    expect(response.body).toMatchObject({
      '@context': '/_api/contexts/User',
      '@id': `/_api/users/${aliceId}`,
      '@type': 'User',
      username: 'alice',
      emailAddress: 'alice@example.com',
      roles: ['ROLE_USER'],
      emailAddressVerified: true,
      newEmailAddress: null,
    })
    expect(response.text).not.toContain(PASSWORD)
  })

  it('GET /_api/me gives the same representation', async () => {
    const me = await server.get('/_api/me', { token: alice })
    const item = await server.get(`/_api/users/${aliceId}`, { token: alice })
    expect(me.body).toEqual(item.body)
  })

  it('shows a super admin every user with enabled', async () => {
    const response = await server.get(`/_api/users/${aliceId}`, { token: root })
    expectStatus(response, 200)
    expect(Object.keys(response.body).sort()).toEqual([...USER_KEYS, 'enabled'].sort())
    expect(response.body.enabled).toBe(true)
  })

  it('hides other accounts from a user and from an admin (404), and lists only their own', async () => {
    expectStatus(await server.get(`/_api/users/${bobId}`, { token: alice }), 404)
    expectStatus(await server.get(`/_api/users/${bobId}`, { token: admin }), 404)
    const list = await server.get('/_api/users', { token: alice })
    expectStatus(list, 200)
    expect(list.body.member.map((u: { id: string }) => u.id)).toEqual([aliceId])
  })

  it('answers 401 to anonymous callers, for the item and the collection', async () => {
    expectStatus(await server.get(`/_api/users/${aliceId}`), 401)
    expectStatus(await server.get('/_api/users'), 401)
  })

  it('expands roles through the hierarchy on output while storing only the assigned role', async () => {
    const response = await server.get(`/_api/users/${rootId}`, { token: root })
    expect([...response.body.roles].sort()).toEqual([
      'ROLE_ADMIN',
      'ROLE_ALLOWED_TO_SWITCH',
      'ROLE_SUPER_ADMIN',
      'ROLE_USER',
    ])
    expect(await storedRoles(rootId)).toEqual(['ROLE_SUPER_ADMIN'])
    const list = await server.get('/_api/users?search=alice', { token: root })
    expect(list.body.member[0].roles).toEqual(['ROLE_USER'])
  })
})

describe('password', () => {
  it('accepts plainPassword, stores only a salted hash and never echoes it', async () => {
    const id = await server.createUser('pw_holder')
    const token = await server.login('pw_holder')
    const newPassword = 'a brand new passphrase 42'
    const response = await server.patch(`/_api/users/${id}`, { plainPassword: newPassword }, { token })
    expectStatus(response, 200)
    expect(response.body).not.toHaveProperty('plainPassword')
    expect(response.body).not.toHaveProperty('password')
    expect(response.text).not.toContain(newPassword)
    const stored = await row(id)
    expect(stored.hash).toMatch(/^pbkdf2-sha256-v1:[0-9a-f]{64}$/)
    expect(stored.salt).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(stored)).not.toContain(newPassword)
    await expect(server.login('pw_holder', PASSWORD)).rejects.toThrow(/401/)
    expect(await server.login('pw_holder', newPassword)).toBeTruthy()
  })
})

describe('fields only a super admin writes', () => {
  it('ignores roles, enabled and emailAddressVerified sent by the account holder (privilege escalation attempt)', async () => {
    const id = await server.createUser('climber')
    const token = await server.login('climber')
    const response = await server.patch(
      `/_api/users/${id}`,
      { roles: ['ROLE_SUPER_ADMIN'], enabled: false, emailAddressVerified: false },
      { token },
    )
    expectStatus(response, 200)
    expect(response.body.roles).toEqual(['ROLE_USER'])
    expect(response.body).not.toHaveProperty('enabled')
    expect(response.body.emailAddressVerified).toBe(true)
    const stored = await row(id)
    expect(stored.enabled).toBe(true)
    expect(stored.email_address_verified).toBe(true)
    expect(await storedRoles(id)).toEqual(['ROLE_USER'])
  })

  it('ignores roles sent by an admin who is not super admin for their own account (privilege escalation attempt)', async () => {
    const id = await server.createUser('admin_climber', ['ROLE_ADMIN'])
    const token = await server.login('admin_climber')
    expectStatus(await server.patch(`/_api/users/${id}`, { roles: ['ROLE_SUPER_ADMIN'] }, { token }), 200)
    expect(await storedRoles(id)).toEqual(['ROLE_ADMIN'])
  })

  it('lets a super admin set roles, enabled and emailAddressVerified', async () => {
    const id = await server.createUser('managed')
    const response = await server.patch(
      `/_api/users/${id}`,
      { roles: ['ROLE_ADMIN'], enabled: false, emailAddressVerified: false },
      { token: root },
    )
    expectStatus(response, 200)
    expect([...response.body.roles].sort()).toEqual(['ROLE_ADMIN', 'ROLE_USER'])
    expect(response.body).toMatchObject({ enabled: false, emailAddressVerified: false })
    expect(await storedRoles(id)).toEqual(['ROLE_ADMIN'])
    expect((await row(id)).enabled).toBe(false)
  })

  it("refuses a user's or an admin's PATCH of another account (403) and changes nothing", async () => {
    for (const token of [alice, admin]) {
      const response = await server.patch(
        `/_api/users/${bobId}`,
        { username: 'hijacked', plainPassword: 'taken over 123' },
        { token },
      )
      expectStatus(response, 403)
    }
    expect((await row(bobId)).username).toBe('bob')
    expect(await server.login('bob')).toBeTruthy()
  })

  it('refuses anonymous PATCH (401)', async () => {
    expectStatus(await server.patch(`/_api/users/${bobId}`, { username: 'anon' }), 401)
  })
})

describe('creation by a super admin, uniqueness', () => {
  it('refuses anonymous registration while users.allowRegistration is off (403), and a ROLE_USER creating accounts (403)', async () => {
    const body = { username: 'intruder', emailAddress: 'intruder@example.com', plainPassword: 'intruder pass 1' }
    expectStatus(await server.post('/_api/users', body), 403)
    expectStatus(await server.post('/_api/users', body, { token: alice }), 403)
    expect(await server.sql("SELECT 1 FROM _acb_users WHERE username = 'intruder'")).toHaveLength(0)
  })

  it('creates a user (201) with ROLE_USER and enabled by default', async () => {
    const response = await server.post(
      '/_api/users',
      { username: 'created', emailAddress: 'created@example.com', plainPassword: 'created pass 123' },
      { token: root },
    )
    expectStatus(response, 201)
    expect(response.body).toMatchObject({
      username: 'created',
      emailAddress: 'created@example.com',
      roles: ['ROLE_USER'],
      enabled: true,
    })
    expect(response.headers.get('location')).toBe(response.body['@id'])
    expect(await server.login('created', 'created pass 123')).toBeTruthy()
  })

  it('requires plainPassword on create (422 on plainPassword)', async () => {
    const response = await server.post(
      '/_api/users',
      { username: 'nopass', emailAddress: 'nopass@example.com' },
      { token: root },
    )
    expectStatus(response, 422)
    expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toContain('plainPassword')
    expect(await server.sql("SELECT 1 FROM _acb_users WHERE username = 'nopass'")).toHaveLength(0)
  })

  it('refuses a taken username (422 on username) and a taken email (422 on emailAddress)', async () => {
    const byName = await server.post(
      '/_api/users',
      { username: 'alice', emailAddress: 'fresh1@example.com', plainPassword: 'some pass 123' },
      { token: root },
    )
    expectStatus(byName, 422)
    expect(byName.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['username'])
    const byEmail = await server.post(
      '/_api/users',
      { username: 'fresh2', emailAddress: 'ALICE@example.com', plainPassword: 'some pass 123' },
      { token: root },
    )
    expectStatus(byEmail, 422)
    expect(byEmail.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['emailAddress'])
    expect(await server.sql("SELECT 1 FROM _acb_users WHERE username IN ('fresh1', 'fresh2')")).toHaveLength(0)
  })

  it('refuses renaming to a taken username (422 on username)', async () => {
    const response = await server.patch(`/_api/users/${aliceId}`, { username: 'bob' }, { token: alice })
    expectStatus(response, 422)
    expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['username'])
    expect((await row(aliceId)).username).toBe('alice')
  })
})
