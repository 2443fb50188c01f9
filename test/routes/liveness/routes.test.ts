import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { firstReadAfter } from '../../support/wait'
import { inSeconds, routeFixtures } from '../../support/routeFixtures'

/**
 * Route liveness through the JSON-LD API (contract: "Route liveness",
 * "Routes"): liveAt defaults to now, is admin-only, gates GET by path,
 * the generic item route and the collection; redirects keep their
 * redirectPath; a scheduled route goes live on the next request after its
 * moment; admins preview with ?at=.
 */

let server: TestServer
let fx: ReturnType<typeof routeFixtures>
let layout: string
let admin: string
let user: string

const byPath = (path: string, token?: string, query = '') =>
  server.get(`/_api/_/routes/${encodeURIComponent(path)}${query}`, { token })

beforeAll(async () => {
  server = await startTestServer()
  fx = routeFixtures(server.payload)
  layout = (await fx.layout()).id
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
})
afterAll(async () => {
  await server?.close()
})

describe('liveAt on creation and who reads or writes it', () => {
  it('POST without liveAt makes the route live now; admins see liveAt and _metadata.effectiveLiveAt', async () => {
    const page = `/_api/_/pages/${(await fx.page(layout)).id}`
    const before = Date.now()
    const response = await server.post('/_api/_/routes', { path: '/posted', page }, { token: admin })
    expect(response.status).toBe(201)
    const liveAt = new Date(response.body.liveAt).getTime()
    expect(liveAt).toBeGreaterThanOrEqual(before - 1000)
    expect(liveAt).toBeLessThanOrEqual(Date.now())
    expect(response.body._metadata.effectiveLiveAt).toBe(response.body.liveAt)
    expect((await byPath('/posted')).status).toBe(200)
  })

  it('anonymous and ROLE_USER callers never see liveAt or effectiveLiveAt', async () => {
    await fx.route('/visible-fields', { page: (await fx.page(layout)).id })
    for (const token of [undefined, user]) {
      const response = await byPath('/visible-fields', token)
      expect(response.status).toBe(200)
      expect(response.body).not.toHaveProperty('liveAt')
      expect(response.body._metadata?.effectiveLiveAt).toBeUndefined()
    }
  })

  it('attack: anonymous and ROLE_USER callers cannot write liveAt (401 / 403), nothing changes', async () => {
    const route = await fx.route('/write-guard', { page: (await fx.page(layout)).id }, '2020-01-01T00:00:00.000Z')
    expect((await server.patch(`/_api/_/routes/${route.id}`, { liveAt: null })).status).toBe(401)
    expect((await server.patch(`/_api/_/routes/${route.id}`, { liveAt: null }, { token: user })).status).toBe(403)
    const [row] = await server.sql('SELECT live_at FROM _acb_routes WHERE id = $1', [route.id])
    expect(new Date(row.live_at).toISOString()).toBe('2020-01-01T00:00:00.000Z')
  })
})

describe('a route that is not live', () => {
  it('liveAt null: 404 by path (both spellings) and by id for the public, 200 for admins; the path stays reserved', async () => {
    const route = await fx.route('/offline', { page: (await fx.page(layout)).id })
    const patched = await server.patch(`/_api/_/routes/${route.id}`, { liveAt: null }, { token: admin })
    expect(patched.status).toBe(200)
    expect(patched.body.liveAt).toBeNull()
    expect(patched.body._metadata.effectiveLiveAt).toBeNull()
    expect((await server.get('/_api/_/routes//offline')).status).toBe(404)
    expect((await server.get('/_api/_/routes/%2Foffline', { token: user })).status).toBe(404)
    expect((await server.get(`/_api/_/routes/${route.id}`)).status).toBe(404)
    expect((await server.get('/_api/_/routes//offline', { token: admin })).status).toBe(200)
    expect((await server.get(`/_api/_/routes/${route.id}`, { token: admin })).status).toBe(200)
    const again = await server.post(
      '/_api/_/routes',
      { path: '/offline', page: `/_api/_/pages/${(await fx.page(layout)).id}` },
      { token: admin },
    )
    expect(again.status).toBe(422)
  })

  it('is omitted from the collection for the public, and totalItems counts only returned routes', async () => {
    await fx.route('/listed-live', { page: (await fx.page(layout)).id })
    await fx.route('/listed-scheduled', { page: (await fx.page(layout)).id }, inSeconds(3600))
    const response = await server.get('/_api/_/routes?itemsPerPage=100')
    const paths = response.body.member.map((m: { path: string }) => m.path)
    expect(paths).toContain('/listed-live')
    expect(paths).not.toContain('/listed-scheduled')
    expect(response.body.totalItems).toBe(paths.length)
    const [{ count }] = await server.sql('SELECT count(*)::int AS count FROM _acb_routes')
    expect(response.body.totalItems).toBeLessThan(count)
    const all = await server.get('/_api/_/routes?itemsPerPage=100', { token: admin })
    expect(all.body.totalItems).toBe(count)
  })

  it('inherits: a child route under a parent whose route is offline is 404 for the public', async () => {
    const parent = await fx.page(layout)
    await fx.route('/parent-offline', { page: parent.id }, null)
    await fx.route('/parent-offline/child', { page: (await fx.page(layout, { parentPage: parent.id })).id })
    expect((await byPath('/parent-offline/child')).status).toBe(404)
    const asAdmin = await byPath('/parent-offline/child', admin)
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body._metadata.effectiveLiveAt).toBeNull()
  })

  it('the next request after the go-live moment sees the route live (nothing scheduled runs)', async () => {
    const liveAt = inSeconds(1.5)
    await fx.route('/soon', { page: (await fx.page(layout)).id }, liveAt)
    expect((await byPath('/soon')).status).toBe(404)
    // Reads until the moment has passed: 404 before it, and the first read after it finds the route live.
    const after = await firstReadAfter(
      Date.parse(liveAt),
      () => byPath('/soon'),
      (before) => expect(before.status).toBe(404),
    )
    expect(after.status).toBe(200)
  })
})

describe('the inherited date follows every write that changes it', () => {
  it('an ancestor route taken offline, a page moved under it, and the ancestor route deleted', async () => {
    const parent = await fx.page(layout)
    const parentRoute = await fx.route('/moving-parent', { page: parent.id })
    const child = await fx.page(layout, { parentPage: parent.id })
    await fx.route('/moving-parent/child', { page: child.id })
    const other = await fx.page(layout)
    await fx.route('/moving-other', { page: other.id })
    expect((await byPath('/moving-parent/child')).status).toBe(200)
    expect((await server.patch(`/_api/_/routes/${parentRoute.id}`, { liveAt: null }, { token: admin })).status).toBe(
      200,
    )
    expect((await byPath('/moving-parent/child')).status).toBe(404)
    // Moved under a live parent: live again; the other page moved under the offline parent: gated.
    expect(
      (await server.patch(`/_api/_/pages/${child.id}`, { parentPage: `/_api/_/pages/${other.id}` }, { token: admin }))
        .status,
    ).toBe(200)
    expect((await byPath('/moving-parent/child')).status).toBe(200)
    expect(
      (await server.patch(`/_api/_/pages/${other.id}`, { parentPage: `/_api/_/pages/${parent.id}` }, { token: admin }))
        .status,
    ).toBe(200)
    expect((await byPath('/moving-other')).status).toBe(404)
    expect((await byPath('/moving-parent/child')).status).toBe(404)
    // An ancestor without a route never gates.
    expect((await server.delete(`/_api/_/routes/${parentRoute.id}`, { token: admin })).status).toBe(204)
    expect((await byPath('/moving-other')).status).toBe(200)
    expect((await byPath('/moving-parent/child')).status).toBe(200)
  })
})

describe('redirects', () => {
  it('a redirect to a gated route still returns its redirectPath (final path of the chain)', async () => {
    const target = await fx.route('/gated-target', { page: (await fx.page(layout)).id }, null)
    const middle = await fx.route('/middle-hop', { redirect: target.id })
    await fx.route('/old-entry', { redirect: middle.id })
    const response = await byPath('/old-entry')
    expect(response.status).toBe(200)
    expect(response.body.redirectPath).toBe('/gated-target')
    expect((await byPath('/gated-target')).status).toBe(404)
    expect((await byPath('/listed-live')).body.redirectPath ?? null).toBeNull()
  })
})

describe('?at= preview (beyond the contract)', () => {
  it('an admin sees the route as it will be at that moment', async () => {
    await fx.route('/scheduled-preview', { page: (await fx.page(layout)).id }, inSeconds(3600))
    const later = await byPath('/scheduled-preview', admin, `?at=${encodeURIComponent(inSeconds(7200))}`)
    expect(later.status).toBe(200)
    expect(later.body._metadata.previewAt).toBeDefined()
    expect((await byPath('/scheduled-preview', admin, `?at=${encodeURIComponent(inSeconds(60))}`)).status).toBe(404)
    for (const bad of ['not-a-date', '1', '2030', ''])
      expect([bad, (await byPath('/scheduled-preview', admin, `?at=${bad}`)).status]).toEqual([bad, 400])
  })

  it('attack: a caller without the publish permission cannot probe the schedule with ?at= (401 / 403)', async () => {
    const at = `?at=${encodeURIComponent(inSeconds(7200))}`
    expect((await byPath('/scheduled-preview', undefined, at)).status).toBe(401)
    expect((await byPath('/scheduled-preview', user, at)).status).toBe(403)
  })
})

describe('without routable_security', () => {
  it('pages with no route are readable by anyone (rule 3)', async () => {
    const page = await fx.page(layout)
    expect((await server.get(`/_api/_/pages/${page.id}`)).status).toBe(200)
  })
})
