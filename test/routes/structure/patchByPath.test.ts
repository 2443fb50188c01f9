/**
 * PATCH /_/routes/{route_path} with and without cascadeChildPaths (service
 * contract, "Routes"), and redirect chains that never loop: a redirect to
 * itself or any cycle is refused (422) on every write of `redirect`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import type { TestServer } from '../../support/server'
import { type fixtures, idOf, startStructureSite } from './helpers'

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
  it('updates only this route: children keep their paths, no redirect is created', async () => {
    const t = await tree()
    const response = await patchPath('/r', { path: '/renamed' })
    expect(response.status).toBe(200)
    const routes = await f.routes()
    expect(routes.get('/renamed')?.id).toBe(idOf(t.routes.r))
    expect(routes.has('/r')).toBe(false)
    expect(routes.get('/r/a/c/d')?.id).toBe(idOf(t.routes.d))
    expect(routes.size).toBe(6)
  })

  it('cascadeChildPaths: false behaves the same', async () => {
    await tree()
    expect((await patchPath('/r/a', { path: '/a2', cascadeChildPaths: false })).status).toBe(200)
    const routes = await f.routes()
    expect(routes.has('/r/a/c')).toBe(true)
    expect(routes.size).toBe(6)
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
