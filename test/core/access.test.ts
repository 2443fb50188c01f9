/**
 * The contract's "Roles and access" table, over real HTTP: writes need an
 * authenticated user (401 anonymous, 403 lacking rights), reads are public
 * unless the resource says otherwise, users are private, tokens work from
 * the Authorization header and from the cookie, and a bad token is a 401.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { generateKeyPairSync, createHmac } from 'node:crypto'
import { SignJWT } from 'jose'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'
import { createRecord } from '../support/fixtures'

let server: TestServer
let userToken: string
let adminToken: string
let superToken: string

let counter = 0
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++counter}`

/** Ids of items created directly, used to build valid bodies. */
const fx: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer()
  userToken = await server.tokenFor('ROLE_USER')
  adminToken = await server.tokenFor('ROLE_ADMIN')
  superToken = await server.tokenFor('ROLE_SUPER_ADMIN')
  const create = (collection: string, data: Record<string, unknown>) => createRecord(server.payload, collection, data)
  fx.layout = await create('layouts', { reference: 'access-layout' })
  fx.template = await create('pages', { reference: 'access-template', layout: fx.layout, isTemplate: true })
  fx.group = await create('component_groups', { reference: 'access-group' })
  // A page has one route; further test routes redirect to this one.
  fx.route = await create('routes', { path: '/access-template', page: fx.template })
})
afterAll(async () => {
  await server.close()
})

/** A valid POST body for each resource, by @type; `null` when the type is unknown to this test. */
function validBody(type: string): Record<string, unknown> | null {
  const layout = `/_api/_/layouts/${fx.layout}`
  const template = `/_api/_/pages/${fx.template}`
  switch (type) {
    case 'Layout':
      return { reference: unique('layout') }
    case 'Page':
      return { reference: unique('page'), layout }
    case 'Route':
      return { path: `/${unique('route')}`, redirect: `/_api/_/routes/${fx.route}` }
    case 'ComponentGroup':
      return { reference: unique('group') }
    case 'ComponentPosition':
      return { componentGroup: `/_api/_/component_groups/${fx.group}`, sortValue: 1 }
    case 'HtmlContent':
      return { html: '<p>x</p>' }
    case 'Image':
    case 'FileDownload':
      return {}
    case 'NavigationLink':
      return { label: 'Link', rawPath: '/somewhere' }
    case 'Title':
      return { title: 'Title' }
    case 'Collection':
      return { resourceIri: '/_api/_/pages' }
    case 'Form':
      return { formType: 'ExampleFormType' }
    case 'SiteConfigParameter':
      return { key: unique('key'), value: 'true' }
    case 'BlogArticleData':
    case 'NewsArticleData':
      return { title: 'Article', page: template }
    case 'User': {
      const name = unique('u')
      return { username: name, emailAddress: `${name}@example.com`, plainPassword: 'a long password' }
    }
    default:
      return null
  }
}

/** A valid PATCH body (a harmless change) for each resource. */
function patchBody(type: string): Record<string, unknown> {
  switch (type) {
    case 'Layout':
    case 'Page':
    case 'HtmlContent':
    case 'Image':
    case 'FileDownload':
    case 'NavigationLink':
    case 'Title':
    case 'Collection':
    case 'Form':
      return { uiComponent: 'Changed' }
    case 'Route':
      return { path: `/${unique('moved')}` }
    case 'ComponentGroup':
      return { location: 'changed' }
    case 'ComponentPosition':
      return { sortValue: 7 }
    case 'BlogArticleData':
    case 'NewsArticleData':
      return { metaDescription: 'changed' }
    case 'User':
      return { newEmailAddress: `${unique('new')}@example.com` }
    case 'SiteConfigParameter':
      return { value: 'false' }
    default:
      return {}
  }
}

interface ApiResource {
  key: string
  iri: string
  type: string
}

async function resources(): Promise<ApiResource[]> {
  const entrypoint = await server.get('/_api/')
  expect(entrypoint.status).toBe(200)
  const out: ApiResource[] = []
  for (const [key, iri] of Object.entries(entrypoint.body as Record<string, string>)) {
    if (key.startsWith('@')) continue
    out.push({ key, iri, type: key.charAt(0).toUpperCase() + key.slice(1) })
  }
  return out
}

const count = (collection: string) => server.payload.count({ collection: collection as never }).then((r) => r.totalDocs)
const slugOf = (iri: string) => iri.split('/').pop()!

function expectError(response: TestResponse, status: number, label: string) {
  if (response.status !== status)
    throw new Error(`${label}: expected ${status}, got ${response.status} ${response.text.slice(0, 300)}`)
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
  expect(response.body).toMatchObject({ '@type': 'Error', status })
}

/** The one resource whose writes are not an admin's: users need a super admin. */
const writerOf = (resource: ApiResource) => (resource.type === 'User' ? () => superToken : () => adminToken)

describe('every resource of the entrypoint', () => {
  it('lists the resources this test knows how to write', async () => {
    const all = await resources()
    expect(all.length).toBeGreaterThanOrEqual(14)
    const unknown = all.filter((r) => validBody(r.type) === null).map((r) => r.type)
    expect(unknown).toEqual([])
  })

  it('anonymous GET of each collection: 200 (users: 401)', async () => {
    for (const resource of await resources()) {
      const response = await server.get(resource.iri)
      if (resource.type === 'User') expectError(response, 401, `GET ${resource.iri}`)
      else {
        expect([resource.iri, response.status]).toEqual([resource.iri, 200])
        expect(response.body['@type']).toBe('Collection')
      }
    }
  })

  it('POST: anonymous 401, ROLE_USER 403, writer 201; refusals create nothing', async () => {
    for (const resource of await resources()) {
      const slug = slugOf(resource.iri)
      const before = await count(slug)
      const body = validBody(resource.type)!
      // Registration is closed by default: an anonymous POST /users is a 403, every other anonymous write a 401.
      expectError(
        await server.post(resource.iri, body),
        resource.type === 'User' ? 403 : 401,
        `anonymous POST ${resource.iri}`,
      )
      expectError(await server.post(resource.iri, body, { token: userToken }), 403, `ROLE_USER POST ${resource.iri}`)
      expect([resource.iri, await count(slug)]).toEqual([resource.iri, before])
      const created = await server.post(resource.iri, validBody(resource.type)!, { token: writerOf(resource)() })
      expect([resource.iri, created.status, created.text.slice(0, 200)]).toEqual([
        resource.iri,
        201,
        created.text.slice(0, 200),
      ])
      expect(created.headers.get('location')).toBe(created.body['@id'])
      expect(await count(slug)).toBe(before + 1)
    }
  })

  it('PATCH and DELETE: anonymous 401, ROLE_USER 403, writer 200/204; refusals change nothing', async () => {
    for (const resource of await resources()) {
      const writer = writerOf(resource)()
      const created = await server.post(resource.iri, validBody(resource.type)!, { token: writer })
      expect(created.status).toBe(201)
      const iri = created.body['@id'] as string
      const stored = await server.payload.findByID({
        collection: slugOf(resource.iri) as never,
        id: created.body.id,
        depth: 0,
      })
      const patch = patchBody(resource.type)

      expectError(await server.patch(iri, patch), 401, `anonymous PATCH ${iri}`)
      expectError(await server.patch(iri, patch, { token: userToken }), 403, `ROLE_USER PATCH ${iri}`)
      expectError(await server.delete(iri), 401, `anonymous DELETE ${iri}`)
      expectError(await server.delete(iri, { token: userToken }), 403, `ROLE_USER DELETE ${iri}`)
      expect(
        await server.payload.findByID({ collection: slugOf(resource.iri) as never, id: created.body.id, depth: 0 }),
      ).toEqual(stored)

      const patched = await server.patch(iri, patch, { token: writer })
      expect([iri, patched.status]).toEqual([iri, 200])
      for (const [key, value] of Object.entries(patch)) expect(patched.body[key]).toEqual(value)
      const deleted = await server.delete(iri, { token: writer })
      expect([iri, deleted.status]).toEqual([iri, 204])
      expect((await server.get(iri, { token: writer })).status).toBe(404)
    }
  })

  it('PUT: anonymous 401, admins 405 (collection and item)', async () => {
    for (const resource of await resources()) {
      const created = await server.post(resource.iri, validBody(resource.type)!, { token: writerOf(resource)() })
      expect(created.status).toBe(201)
      for (const path of [resource.iri, created.body['@id'] as string]) {
        expectError(await server.request('PUT', path, { a: 1 }), 401, `anonymous PUT ${path}`)
        expectError(await server.request('PUT', path, { a: 1 }, { token: userToken }), 405, `ROLE_USER PUT ${path}`)
        expectError(await server.request('PUT', path, { a: 1 }, { token: adminToken }), 405, `admin PUT ${path}`)
        expectError(await server.request('PUT', path, { a: 1 }, { token: superToken }), 405, `super admin PUT ${path}`)
      }
    }
  })

  it('a caller without the right is refused before the body is looked at (no 422, no IRI probing)', async () => {
    const hidden = `/_api/_/layouts/${'0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e'}`
    expectError(
      await server.post('/_api/_/pages', { reference: 5, layout: hidden }, { token: userToken }),
      403,
      'ROLE_USER invalid POST',
    )
    expectError(await server.post('/_api/_/pages', { reference: 5, layout: hidden }), 401, 'anonymous invalid POST')
    expectError(
      await server.patch(`/_api/_/layouts/${fx.layout}`, { reference: 5 }, { token: userToken }),
      403,
      'ROLE_USER invalid PATCH',
    )
    expectError(await server.post('/_api/users', { username: 5 }), 403, 'anonymous invalid registration')
  })
})

describe('users and sessions', () => {
  it('POST /_api/users anonymous is 403 while registration is closed, and creates nothing', async () => {
    const before = await count('users')
    expectError(await server.post('/_api/users', validBody('User')!), 403, 'anonymous registration')
    expectError(
      await server.post('/_api/users', validBody('User')!, { token: userToken }),
      403,
      'ROLE_USER creates a user',
    )
    expectError(
      await server.post('/_api/users', validBody('User')!, { token: adminToken }),
      403,
      'ROLE_ADMIN creates a user',
    )
    expect(await count('users')).toBe(before)
  })

  it('GET /_api/me: 401 anonymous, the user with a bearer token or the api_component cookie', async () => {
    expectError(await server.get('/_api/me'), 401, 'anonymous /me')
    const id = await server.createUser('me_user', ['ROLE_USER'])
    const token = await server.login('me_user')
    const bearer = await server.get('/_api/me', { token })
    expect(bearer.status).toBe(200)
    expect(bearer.body).toMatchObject({
      '@context': '/_api/contexts/User',
      '@id': `/_api/users/${id}`,
      username: 'me_user',
    })
    const cookie = await server.get('/_api/me', {
      headers: { cookie: `other=1; api_component=${encodeURIComponent(token)}` },
    })
    expect(cookie.status).toBe(200)
    expect(cookie.body['@id']).toBe(`/_api/users/${id}`)
    // The cookie authorizes writes too.
    const write = await server.post(
      '/_api/_/layouts',
      { reference: unique('cookie') },
      { headers: { cookie: `api_component=${adminToken}` } },
    )
    expect(write.status).toBe(201)
  })

  it('a tampered, garbage, expired, unsigned or foreign-key token is a 401, from the header or the cookie', async () => {
    const [header, payload, signature] = adminToken.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    const forged = Buffer.from(JSON.stringify({ ...claims, roles: ['ROLE_SUPER_ADMIN'] })).toString('base64url')
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA')
    const keys = await loadJwtKeys(process.env)
    const expired = await new SignJWT({ username: claims.username, roles: claims.roles })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(keys.privateKey)
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 })
    const foreignSigned = await new SignJWT({ username: claims.username, roles: ['ROLE_SUPER_ADMIN'] })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(foreign.privateKey)
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`
    const hsHeader = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url')
    const publicPem = keys.publicKey.export({ type: 'spki', format: 'pem' }) as string
    const hs = `${hsHeader}.${payload}.${createHmac('sha256', publicPem).update(`${hsHeader}.${payload}`).digest('base64url')}`
    const bad = {
      'forged claims': `${header}.${forged}.${signature}`,
      'flipped signature': `${header}.${payload}.${flipped}`,
      garbage: 'garbage',
      'three dots': '...',
      expired,
      'foreign key': foreignSigned,
      'alg none': none,
      'HS256 with the public key': hs,
      long: 'a'.repeat(6000),
    }
    const before = await count('layouts')
    for (const [label, token] of Object.entries(bad)) {
      expectError(await server.get('/_api/me', { token }), 401, `${label} (bearer) /me`)
      expectError(
        await server.get('/_api/me', { headers: { cookie: `api_component=${encodeURIComponent(token)}` } }),
        401,
        `${label} (cookie) /me`,
      )
      expectError(await server.post('/_api/_/layouts', { reference: unique('bad') }, { token }), 401, `${label} POST`)
      expectError(await server.get('/_api/_/layouts', { token }), 401, `${label} GET`)
    }
    expect(await count('layouts')).toBe(before)
  })

  it('a ROLE_USER reads only itself: another user is 404/403, the collection lists only itself', async () => {
    const me = await server.createUser('reader_one')
    const other = await server.createUser('reader_two')
    const token = await server.login('reader_one')
    const response = await server.get(`/_api/users/${other}`, { token })
    expect([403, 404]).toContain(response.status)
    expect(response.text).not.toContain('reader_two')
    const own = await server.get(`/_api/users/${me}`, { token })
    expect(own.status).toBe(200)
    const list = await server.get('/_api/users', { token })
    expect(list.status).toBe(200)
    expect(list.body.totalItems).toBe(1)
    expect(list.body.member.map((m: { id: string }) => m.id)).toEqual([me])
    const search = await server.get('/_api/users?search=reader_two', { token })
    expect(search.status).toBe(200)
    expect(search.body.totalItems).toBe(0)
    // An admin that is not a super admin is no different.
    const adminList = await server.get('/_api/users', { token: adminToken })
    expect(adminList.status).toBe(200)
    expect(adminList.body.totalItems).toBe(1)
    expect([403, 404]).toContain((await server.get(`/_api/users/${other}`, { token: adminToken })).status)
  })

  it('a super admin reads every user', async () => {
    const other = await server.createUser('seen_by_super')
    const response = await server.get(`/_api/users/${other}`, { token: superToken })
    expect(response.status).toBe(200)
    expect(response.body.username).toBe('seen_by_super')
    const list = await server.get('/_api/users?itemsPerPage=100', { token: superToken })
    expect(list.status).toBe(200)
    expect(list.body.totalItems).toBe(await count('users'))
    expect(list.body.totalItems).toBeGreaterThan(3)
  })

  it('roles and enabled cannot be raised by a non-super-admin PATCH of their own user', async () => {
    for (const role of ['ROLE_USER', 'ROLE_ADMIN'] as const) {
      const username = unique(role.toLowerCase())
      const id = await server.createUser(username, [role])
      const token = await server.login(username)
      const response = await server.patch(
        `/_api/users/${id}`,
        { roles: ['ROLE_SUPER_ADMIN'], enabled: false, newEmailAddress: `${username}.new@example.com` },
        { token },
      )
      expect(response.status).toBeLessThan(500)
      const stored = (await server.payload.findByID({ collection: 'users', id, depth: 0 })) as Record<string, any>
      expect(stored.roles).toEqual([role])
      expect(stored.enabled).toBe(true)
      if (response.status === 200) expect(response.body.roles).not.toContain('ROLE_SUPER_ADMIN')
      // A fresh login still carries the old roles: no super admin rights appeared.
      const again = await server.login(username)
      const me = await server.get('/_api/me', { token: again })
      expect(me.body.roles).not.toContain('ROLE_SUPER_ADMIN')
      expect((await server.get('/_api/users', { token: again })).body.totalItems).toBe(1)
      expectError(
        await server.post('/_api/users', validBody('User')!, { token: again }),
        403,
        `${role} creates a user after the PATCH`,
      )
    }
  })

  it('a ROLE_USER cannot PATCH or DELETE another user, nor delete itself', async () => {
    const me = await server.createUser('patcher_one')
    const other = await server.createUser('patcher_two')
    const token = await server.login('patcher_one')
    const before = await server.payload.findByID({ collection: 'users', id: other, depth: 0 })
    const patch = await server.patch(
      `/_api/users/${other}`,
      { newEmailAddress: 'stolen@example.com', roles: ['ROLE_USER'] },
      { token },
    )
    expect([403, 404]).toContain(patch.status)
    expect([403, 404]).toContain((await server.delete(`/_api/users/${other}`, { token })).status)
    expect(await server.payload.findByID({ collection: 'users', id: other, depth: 0 })).toEqual(before)
    expectError(await server.delete(`/_api/users/${me}`, { token }), 403, 'ROLE_USER deletes itself')
    expect((await server.payload.find({ collection: 'users', where: { id: { equals: me } } })).totalDocs).toBe(1)
  })

  it('a super admin can change roles and enabled (the positive control)', async () => {
    const id = await server.createUser(unique('promoted'))
    const response = await server.patch(
      `/_api/users/${id}`,
      { roles: ['ROLE_ADMIN'], enabled: false },
      { token: superToken },
    )
    expect(response.status).toBe(200)
    const stored = (await server.payload.findByID({ collection: 'users', id, depth: 0 })) as Record<string, any>
    expect(stored.roles).toEqual(['ROLE_ADMIN'])
    expect(stored.enabled).toBe(false)
  })
})

describe('registration opened by configuration', () => {
  let open: TestServer
  beforeAll(async () => {
    open = await startTestServer({ options: { users: { allowRegistration: true } } })
  })
  afterAll(async () => {
    await open.close()
  })

  it('lets an anonymous caller register, without choosing roles or enabled', async () => {
    const name = unique('reg')
    const response = await open.post('/_api/users', {
      username: name,
      emailAddress: `${name}@example.com`,
      plainPassword: 'a long password',
      roles: ['ROLE_SUPER_ADMIN'],
      enabled: false,
    })
    expect(response.status).toBe(201)
    expect(response.body).not.toHaveProperty('plainPassword')
    expect(response.body).not.toHaveProperty('password')
    const stored = (await open.payload.findByID({ collection: 'users', id: response.body.id, depth: 0 })) as Record<
      string,
      any
    >
    expect(stored.roles).toEqual(['ROLE_USER'])
    expect(stored.enabled).not.toBe(false)
    // Other anonymous writes stay closed.
    expect((await open.post('/_api/_/layouts', { reference: unique('x') })).status).toBe(401)
  })
})

describe('registration with a taken email', () => {
  it('reports the violation on emailAddress, not on username', async () => {
    const server = await startTestServer({ options: { users: { allowRegistration: true } } })
    try {
      const first = await server.post('/_api/users', {
        username: 'first',
        emailAddress: 'same@example.com',
        plainPassword: 'a long enough password',
      })
      expect(first.status).toBe(201)
      const second = await server.post('/_api/users', {
        username: 'second',
        emailAddress: 'SAME@example.com',
        plainPassword: 'a long enough password',
      })
      expect(second.status).toBe(422)
      expect(second.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['emailAddress'])
    } finally {
      await server.close()
    }
  })
})
