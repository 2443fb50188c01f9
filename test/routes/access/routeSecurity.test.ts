import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { routeFixtures } from '../../support/routeFixtures'

/**
 * route_security (contract, "Route security rules"): a rule filters the
 * Route collection with `*` as a SQL LIKE wildcard anchored to the whole
 * path, and denies item access when any matching rule fails, with `*` as an
 * unanchored regex (so /admin* also matches /foo/admin/bar).
 */

let server: TestServer
let admin: string
let user: string

beforeAll(async () => {
  server = await startTestServer({
    options: {
      routeSecurity: [
        { route: '/admin*', security: 'ROLE_ADMIN' },
        { route: '/x_z', security: 'ROLE_ADMIN' },
      ],
    },
  })
  const fx = routeFixtures(server.payload)
  const layout = (await fx.layout()).id
  for (const path of ['/admin', '/admin/settings', '/foo/admin/bar', '/public', '/xyz', '/x_z'])
    await fx.route(path, { page: (await fx.page(layout)).id })
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
})
afterAll(async () => {
  await server?.close()
})

const listed = async (token?: string) =>
  (await server.get('/_api/_/routes?itemsPerPage=100', { token })).body.member
    .map((m: { path: string }) => m.path)
    .sort()

describe('collection: LIKE anchored to the whole path', () => {
  it('attack: callers failing the rule do not list /admin* routes; /foo/admin/bar is not matched by the anchored LIKE', async () => {
    for (const token of [undefined, user]) expect(await listed(token)).toEqual(['/foo/admin/bar', '/public', '/xyz'])
  })

  it('the LIKE escapes its own wildcards: "_" in a pattern is a literal (/x_z hides /x_z, not /xyz)', async () => {
    const paths = await listed()
    expect(paths).toContain('/xyz')
    expect(paths).not.toContain('/x_z')
  })

  it('callers passing the rule list every route', async () => {
    expect(await listed(admin)).toEqual(['/admin', '/admin/settings', '/foo/admin/bar', '/public', '/x_z', '/xyz'])
  })
})

describe('item: unanchored regex', () => {
  it('attack: GET by path of a route matching anywhere is denied: 401 anonymous, 403 ROLE_USER', async () => {
    for (const path of ['/admin', '/admin/settings', '/foo/admin/bar']) {
      expect((await server.get(`/_api/_/routes/${encodeURIComponent(path)}`)).status).toBe(401)
      expect((await server.get(`/_api/_/routes/${encodeURIComponent(path)}`, { token: user })).status).toBe(403)
      expect((await server.get(`/_api/_/routes/${encodeURIComponent(path)}`, { token: admin })).status).toBe(200)
    }
    expect((await server.get('/_api/_/routes//public')).status).toBe(200)
  })

  it('attack: the same rule guards the route by id', async () => {
    const [row] = await server.sql("SELECT id FROM _acb_routes WHERE path = '/foo/admin/bar'")
    expect((await server.get(`/_api/_/routes/${row.id}`)).status).toBe(401)
    expect((await server.get(`/_api/_/routes/${row.id}`, { token: admin })).status).toBe(200)
  })
})
