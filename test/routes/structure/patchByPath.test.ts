/**
 * PATCH /_/routes/{route_path} with and without cascadeChildPaths (service
 * contract, "Routes"); a rename leaves its old path redirecting to the route
 * on every API (issue 41), and redirect chains that never loop: a redirect to
 * itself or any cycle is refused (422) on every write of `redirect`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { configToSchema } from '@payloadcms/graphql'
import { graphql } from 'graphql'
import { createLocalReq } from 'payload'
import type { TestServer } from '../../support/server'
import { type fixtures, idOf, startStructureSite } from '../../support/routeStructure'

let server: TestServer
let admin: string
let f: ReturnType<typeof fixtures>
let layout: string
let template: string

const patchPath = (path: string, body: unknown, token = admin) =>
  server.patch(`/_api/_/routes/${encodeURIComponent(path)}`, body, { token })

beforeAll(async () => {
  ;({ server, admin, f, layout, template } = await startStructureSite())
})
beforeEach(async () => {
  await server.sql('DELETE FROM _acb_routes')
})
afterAll(async () => {
  await server?.close()
})

/**
 * /r (page R) > /r/a (page A) > page B without a route > /r/a/c (article C)
 * > /r/a/c/d (page D under C); plus /elsewhere (page E under R, a path not
 * below /r) and /r/x (article X under R).
 */
async function tree() {
  const R = await f.page(layout, { title: 'R' })
  const A = await f.page(layout, { title: 'A', parentPage: R })
  const B = await f.page(layout, { title: 'B', parentPage: A })
  const C = await f.article(template, 'C', { parentPage: B })
  const D = await f.page(layout, { title: 'D', parentPageData: C })
  const E = await f.page(layout, { title: 'E', parentPage: R })
  const X = await f.article(template, 'X', { parentPage: R })
  const routes = {
    r: await f.route('/r', { page: R }),
    a: await f.route('/r/a', { page: A }),
    c: await f.route('/r/a/c', { pageData: C }),
    d: await f.route('/r/a/c/d', { page: D }),
    e: await f.route('/elsewhere', { page: E }),
    x: await f.route('/r/x', { pageData: X }),
  }
  return { R, A, B, C, D, E, X, routes }
}

describe('cascadeChildPaths: true', () => {
  it('moves the whole subtree, three levels deep, and redirects every old path to the route now serving it', async () => {
    const t = await tree()
    const response = await patchPath('/r', { path: '/root', cascadeChildPaths: true })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ '@id': t.routes.r, path: '/root', page: t.R })
    const routes = await f.routes()
    const serving = (path: string) => routes.get(path)
    expect(serving('/root')).toMatchObject({ id: idOf(t.routes.r), page: idOf(t.R), redirect: null })
    expect(serving('/root/a')).toMatchObject({ id: idOf(t.routes.a), page: idOf(t.A) })
    expect(serving('/root/a/c')).toMatchObject({ id: idOf(t.routes.c), pageData: idOf(t.C) })
    expect(serving('/root/a/c/d')).toMatchObject({ id: idOf(t.routes.d), page: idOf(t.D) })
    expect(serving('/root/x')).toMatchObject({ id: idOf(t.routes.x), pageData: idOf(t.X) })
    // Each old path is now a redirect to the route that serves its record.
    for (const [old, route] of [
      ['/r', t.routes.r],
      ['/r/a', t.routes.a],
      ['/r/a/c', t.routes.c],
      ['/r/a/c/d', t.routes.d],
      ['/r/x', t.routes.x],
    ] as const) {
      expect({ old, ...serving(old) }).toEqual({
        old,
        id: expect.any(String),
        page: null,
        pageData: null,
        redirect: idOf(route),
      })
    }
    // A descendant whose path is not below the old path keeps it, without a redirect.
    expect(serving('/elsewhere')).toMatchObject({ id: idOf(t.routes.e), redirect: null })
    expect(routes.size).toBe(11)
  })

  it('accepts the path in the URL unencoded (/_/routes//r) as well', async () => {
    const t = await tree()
    const response = await server.patch(
      '/_api/_/routes//r/a',
      { path: '/r/alpha', cascadeChildPaths: true },
      { token: admin },
    )
    expect(response.status).toBe(200)
    const routes = await f.routes()
    expect(routes.get('/r/alpha/c/d')?.id).toBe(idOf(t.routes.d))
    expect(routes.get('/r/a/c')?.redirect).toBe(idOf(t.routes.c))
    // Above the moved route nothing changes.
    expect(routes.get('/r')).toMatchObject({ id: idOf(t.routes.r), redirect: null })
  })

  it('cascades by the route IRI (UUID) too', async () => {
    const t = await tree()
    const response = await server.patch(t.routes.a, { path: '/r/alpha', cascadeChildPaths: true }, { token: admin })
    expect(response.status).toBe(200)
    const routes = await f.routes()
    expect(routes.get('/r/alpha/c/d')?.id).toBe(idOf(t.routes.d))
    expect(routes.get('/r/a')?.redirect).toBe(idOf(t.routes.a))
  })

  it('rolls everything back when a new path is taken (422): no path changed, no redirect added', async () => {
    const t = await tree()
    await f.route('/taken/a', { page: await f.page(layout, { title: 'Squatter' }) })
    const before = await f.routes()
    const response = await patchPath('/r', { path: '/taken', cascadeChildPaths: true })
    expect(response.status).toBe(422)
    expect(await f.routes()).toEqual(before)
    expect(before.get('/r')?.id).toBe(idOf(t.routes.r))
  })
})

describe('without cascadeChildPaths', () => {
  it('moves only this route: its old path redirects to it, children keep their paths and get no redirect', async () => {
    const t = await tree()
    const response = await patchPath('/r', { path: '/renamed' })
    expect(response.status).toBe(200)
    const routes = await f.routes()
    expect(routes.get('/renamed')?.id).toBe(idOf(t.routes.r))
    expect(routes.get('/r')).toEqual({ id: expect.any(String), page: null, pageData: null, redirect: idOf(t.routes.r) })
    expect(routes.get('/r/a/c/d')?.id).toBe(idOf(t.routes.d))
    expect(routes.size).toBe(7)
    // The answer is what a GET gives: it lists the redirect just left.
    const redirect = `/_api/_/routes/${routes.get('/r')!.id}`
    expect(response.body.redirectedRoutes).toEqual([redirect])
    expect((await server.get(t.routes.r, { token: admin })).body.redirectedRoutes).toEqual([redirect])
    // An anonymous visitor at the old path is sent on to the new one.
    expect((await server.get('/_api/_/routes//r')).body).toMatchObject({ path: '/r', redirectPath: '/renamed' })
  })

  it('cascadeChildPaths: false behaves the same', async () => {
    const t = await tree()
    expect((await patchPath('/r/a', { path: '/a2', cascadeChildPaths: false })).status).toBe(200)
    const routes = await f.routes()
    expect(routes.has('/r/a/c')).toBe(true)
    expect(routes.get('/r/a')?.redirect).toBe(idOf(t.routes.a))
    expect(routes.size).toBe(7)
  })

  it('renaming twice leaves both old paths redirecting to the route; renaming back takes its redirect back', async () => {
    const t = await tree()
    expect((await patchPath('/elsewhere', { path: '/e2' })).status).toBe(200)
    expect((await patchPath('/e2', { path: '/e3' })).status).toBe(200)
    const chain = await server.post(
      '/_api/_/routes',
      { path: '/to-e2', redirect: `/_api/_/routes/${(await f.routes()).get('/e2')!.id}` },
      { token: admin },
    )
    expect(chain.status).toBe(201)
    let routes = await f.routes()
    expect(routes.get('/elsewhere')?.redirect).toBe(idOf(t.routes.e))
    expect(routes.get('/e2')?.redirect).toBe(idOf(t.routes.e))
    // Back to /e2: not "taken" (it was this route's own redirect); what redirected to that redirect now redirects to the route.
    const back = await patchPath('/e3', { path: '/e2' })
    expect(back.status).toBe(200)
    routes = await f.routes()
    expect(routes.get('/e2')).toMatchObject({ id: idOf(t.routes.e), redirect: null })
    expect(routes.get('/e3')?.redirect).toBe(idOf(t.routes.e))
    expect(routes.get('/to-e2')?.redirect).toBe(idOf(t.routes.e))
    // A path held by a redirect to another route stays taken.
    expect((await patchPath('/e2', { path: '/r/a/c' })).status).toBe(422)
  })

  it("an offline route's old path does not go online: the redirect keeps the route's liveAt", async () => {
    const t = await tree()
    expect((await server.patch(t.routes.e, { liveAt: null }, { token: admin })).status).toBe(200)
    expect((await patchPath('/elsewhere', { path: '/hidden' })).status).toBe(200)
    const rows = await server.sql(`SELECT live_at FROM _acb_routes WHERE path = '/elsewhere'`)
    expect(rows).toEqual([{ live_at: null }])
    expect((await server.get('/_api/_/routes//elsewhere')).status).toBe(404)
  })

  it('a rename refused (a taken path) leaves no redirect behind', async () => {
    await tree()
    const before = await f.routes()
    expect((await patchPath('/elsewhere', { path: '/r' })).status).toBe(422)
    expect(await f.routes()).toEqual(before)
  })
})

describe('a rename redirects on every API', () => {
  it("Payload's REST API (the admin panel's edit view)", async () => {
    const t = await tree()
    const cookie = { cookie: `api_component=${admin}` }
    const response = await server.request(
      'PATCH',
      `/api/routes/${idOf(t.routes.e)}`,
      { path: '/by-rest' },
      { headers: cookie, contentType: 'application/json' },
    )
    expect(response.status).toBe(200)
    expect((await f.routes()).get('/elsewhere')?.redirect).toBe(idOf(t.routes.e))
    // The routes list (admin) shows it.
    const listed = await server.get('/api/routes?where[path][equals]=/elsewhere&depth=0', { headers: cookie })
    expect(listed.body.docs).toEqual([expect.objectContaining({ path: '/elsewhere', redirect: idOf(t.routes.e) })])
  })

  it("Payload's GraphQL schema", async () => {
    const t = await tree()
    const schema = configToSchema(server.payload.config).schema
    const user = await server.payload.find({
      collection: 'users',
      where: { roles: { contains: 'ROLE_ADMIN' } },
      limit: 1,
      depth: 0,
    })
    const req = await createLocalReq({ user: { ...user.docs[0], collection: 'users' } as never }, server.payload)
    const result = await graphql({
      schema,
      source: `mutation { updateRoute(id: "${idOf(t.routes.e)}", data: { path: "/by-graphql" }) { path } }`,
      contextValue: { req, headers: {} },
    })
    expect(result.errors).toBeUndefined()
    expect((await f.routes()).get('/elsewhere')?.redirect).toBe(idOf(t.routes.e))
  })

  it('the Local API (plugin code) too', async () => {
    const t = await tree()
    await server.payload.update({ collection: 'routes', id: idOf(t.routes.x), data: { path: '/x-local' } })
    expect((await f.routes()).get('/r/x')?.redirect).toBe(idOf(t.routes.x))
  })
})

describe('PATCH by path: bad input and access', () => {
  it('answers 404 for an unknown path, 422 for a non-boolean flag or a bad path, never 500', async () => {
    await tree()
    expect((await patchPath('/nope', { path: '/x' })).status).toBe(404)
    const flag = await patchPath('/r', { path: '/x', cascadeChildPaths: 'yes' })
    expect(flag.status).toBe(422)
    expect(flag.body.violations[0].propertyPath).toBe('cascadeChildPaths')
    const noSlash = await patchPath('/r', { path: 'x', cascadeChildPaths: true })
    expect(noSlash.status).toBe(422)
    expect((await patchPath('/r', { path: 12 })).status).toBe(422)
    expect(
      (
        await server.request('PATCH', '/_api/_/routes//r', undefined, {
          token: admin,
          raw: '[1]',
          contentType: 'application/merge-patch+json',
        })
      ).status,
    ).toBe(400)
    expect((await f.routes()).get('/r')).toBeDefined()
  })

  it('refuses anonymous callers (401) and non-admins (403): no route renamed by an outsider', async () => {
    await tree()
    expect((await server.patch('/_api/_/routes//r', { path: '/hijack' })).status).toBe(401)
    expect(
      (await patchPath('/r', { path: '/hijack', cascadeChildPaths: true }, await server.tokenFor('ROLE_USER'))).status,
    ).toBe(403)
    expect((await f.routes()).has('/hijack')).toBe(false)
  })
})

describe('redirect chains never loop', () => {
  async function chain() {
    const x = await f.route('/x', { page: await f.page(layout, { title: 'X' }) })
    const y = await f.route('/y', { redirect: x })
    const z = await f.route('/z', { redirect: y })
    return { x, y, z }
  }

  it('refuses a redirect to itself (422 on redirect), by IRI and by path', async () => {
    const { y } = await chain()
    const byIri = await server.patch(y, { redirect: y }, { token: admin })
    expect(byIri.status).toBe(422)
    expect(byIri.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['redirect'])
    expect((await patchPath('/y', { redirect: y })).status).toBe(422)
  })

  it('refuses a 2-cycle (x -> y -> x) and a 3-cycle (x -> z -> y -> x), route unchanged', async () => {
    const { x, y, z } = await chain()
    const two = await server.patch(x, { page: null, redirect: y }, { token: admin })
    expect(two.status).toBe(422)
    expect(two.body.violations[0]).toMatchObject({ propertyPath: 'redirect' })
    const three = await patchPath('/x', { page: null, redirect: z })
    expect(three.status).toBe(422)
    expect((await f.routes()).get('/x')).toMatchObject({ redirect: null, page: expect.any(String) })
  })

  it('accepts a longer chain that does not loop', async () => {
    const { z } = await chain()
    const w = await server.post('/_api/_/routes', { path: '/w', redirect: z }, { token: admin })
    expect(w.status).toBe(201)
    const v = await f.route('/v', { page: await f.page(layout, { title: 'V' }) })
    expect((await server.patch(v, { page: null, redirect: w.body['@id'] }, { token: admin })).status).toBe(200)
  })
})
