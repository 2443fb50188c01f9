import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { inSeconds, routeFixtures } from '../../support/routeFixtures'

/**
 * Route.liveAt is readable and writable only by admins, "admin" meaning the
 * caller passes the publish permission (here ROLE_SUPER_ADMIN, so a
 * ROLE_ADMIN may edit routes but not their go-live date, and is a member of
 * the public for liveness).
 */

let server: TestServer
let editor: string
let superAdmin: string
let page: string
let newPage: () => Promise<string>

beforeAll(async () => {
  server = await startTestServer({ options: { publishable: { permission: 'ROLE_SUPER_ADMIN' } } })
  const fx = routeFixtures(server.payload)
  const layout = (await fx.layout()).id
  newPage = async () => `/_api/_/pages/${(await fx.page(layout)).id}`
  page = await newPage()
  editor = await server.tokenFor('ROLE_ADMIN')
  superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

describe('liveAt without the publish permission', () => {
  it('attack: an editor cannot schedule or take a route offline: liveAt sent on POST is ignored (live now), on PATCH left unchanged', async () => {
    const created = await server.post(
      '/_api/_/routes',
      { path: '/editor-made', page, liveAt: inSeconds(3600) },
      { token: editor },
    )
    expect(created.status).toBe(201)
    expect(created.body).not.toHaveProperty('liveAt')
    const [row] = await server.sql("SELECT live_at, effective_live_at FROM _acb_routes WHERE path = '/editor-made'")
    expect(new Date(row.live_at).getTime()).toBeLessThanOrEqual(Date.now())
    const patched = await server.patch(`/_api/_/routes/${created.body.id}`, { liveAt: null }, { token: editor })
    expect(patched.status).toBe(200)
    const [after] = await server.sql("SELECT live_at FROM _acb_routes WHERE path = '/editor-made'")
    expect(after.live_at).not.toBeNull()
    expect((await server.get('/_api/_/routes//editor-made')).status).toBe(200)
  })

  it('attack: the computed date cannot be written by anyone through the API', async () => {
    const created = await server.post(
      '/_api/_/routes',
      { path: '/forged', page: await newPage(), liveAt: null, effectiveLiveAt: '2020-01-01T00:00:00.000Z' },
      { token: superAdmin },
    )
    expect(created.status).toBe(201)
    const [row] = await server.sql("SELECT live_at, effective_live_at FROM _acb_routes WHERE path = '/forged'")
    expect(row.live_at).toBeNull()
    expect(row.effective_live_at).toBeNull()
    expect((await server.get('/_api/_/routes//forged')).status).toBe(404)
  })

  it('an editor does not see routes that are not live; the publish permission does, with liveAt and effectiveLiveAt', async () => {
    const offline = await server.post(
      '/_api/_/routes',
      { path: '/super-offline', page: await newPage(), liveAt: null },
      { token: superAdmin },
    )
    expect(offline.status).toBe(201)
    expect(offline.body.liveAt).toBeNull()
    expect(offline.body._metadata.effectiveLiveAt).toBeNull()
    expect((await server.get('/_api/_/routes//super-offline', { token: editor })).status).toBe(404)
    const seen = await server.get('/_api/_/routes//super-offline', { token: superAdmin })
    expect(seen.status).toBe(200)
    expect(seen.body).toHaveProperty('liveAt', null)
  })
})
