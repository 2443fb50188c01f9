/**
 * "Generate route from title" in the admin panel calls the page's (or page
 * data's) REST endpoint `POST /api/<slug>/<id>/generate-route`: the
 * contract's generation for a caller signed in to Payload, with the same
 * answers as `POST /_api/_/routes/generate`, and the same refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string
let user: string
let layout: string

const rest = (path: string, token: string | null) =>
  server.request(
    'POST',
    path,
    {},
    {
      contentType: 'application/json',
      headers: {
        accept: 'application/json',
        ...(token ? { cookie: `api_component=${encodeURIComponent(token)}` } : {}),
      },
    },
  )

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
  layout = (await server.post('/_api/_/layouts', { reference: 'l' }, { token: admin })).body['@id']
})
afterAll(async () => {
  await server?.close()
})

describe('POST /api/<slug>/<id>/generate-route', () => {
  it('a page: its route from the title (201), then the same route again (200); the public reads it once the page is published', async () => {
    const page = (
      await server.post('/_api/_/pages', { reference: 'team', title: 'Our Team', layout }, { token: admin })
    ).body
    const id = page['@id'].split('/').pop()
    const created = await rest(`/api/pages/${id}/generate-route`, admin)
    expect(created.status).toBe(201)
    expect(created.body.path).toBe('/our-team')
    expect((await rest(`/api/pages/${id}/generate-route`, admin)).status).toBe(200)
    // The admin panel's first route waits for "Publish page" (test/admin/pageBuilderPublish.test.ts).
    expect((await server.get('/_api/_/routes//our-team')).status).toBe(404)
    expect((await server.post('/_api/_/page_builder/publish', { iri: page['@id'] }, { token: admin })).body.route).toBe(
      '/our-team',
    )
    expect((await server.get('/_api/_/routes//our-team')).status).toBe(200)
  })

  it('page data under a parent without a route: 422 naming the reason, nothing created', async () => {
    const template = (
      await server.post('/_api/_/pages', { reference: 'tpl', title: 'T', layout, isTemplate: true }, { token: admin })
    ).body['@id']
    const parent = (
      await server.post('/_api/_/pages', { reference: 'parent', title: 'Parent', layout }, { token: admin })
    ).body['@id']
    const data = (
      await server.post(
        '/_api/page_data/news_article_datas',
        { title: 'Child news', page: template, parentPage: parent },
        { token: admin },
      )
    ).body
    expect(data['@id']).toBeDefined()
    const before = await server.sql('SELECT count(*)::int AS n FROM _acb_routes')
    const refused = await rest(`/api/news_article_datas/${data['@id'].split('/').pop()}/generate-route`, admin)
    expect(refused.status).toBe(422)
    expect(refused.body.violations[0]).toMatchObject({ code: 'unrouted_parent' })
    expect(await server.sql('SELECT count(*)::int AS n FROM _acb_routes')).toEqual(before)
  })

  it('anonymous: 401; a user without the permission: 403; an unknown record: 422', async () => {
    const page = (
      await server.post('/_api/_/pages', { reference: 'x', title: 'Refused', layout }, { token: admin })
    ).body['@id']
      .split('/')
      .pop()
    expect((await rest(`/api/pages/${page}/generate-route`, null)).status).toBe(401)
    expect((await rest(`/api/pages/${page}/generate-route`, user)).status).toBe(403)
    const unknown = await rest('/api/pages/00000000-0000-4000-8000-000000000000/generate-route', admin)
    expect(unknown.status).toBe(422)
    expect((await server.sql("SELECT count(*)::int AS n FROM _acb_routes WHERE path = '/refused'"))[0].n).toBe(0)
  })
})

describe('the first route waits for a caller who may not write liveAt', () => {
  it('an admin without the publish permission (ROLE_SUPER_ADMIN here) generates a route that waits all the same', async () => {
    // The attack guarded against (an editor's, by accident): a route made public by someone who may not publish.
    const other = await startTestServer({ options: { publishable: { permission: 'ROLE_SUPER_ADMIN' } } })
    try {
      const adminToken = await other.tokenFor('ROLE_ADMIN')
      const otherLayout = (await other.post('/_api/_/layouts', { reference: 'l2' }, { token: adminToken })).body['@id']
      const page = (
        await other.post(
          '/_api/_/pages',
          { reference: 'waits', title: 'Waits too', layout: otherLayout },
          { token: adminToken },
        )
      ).body['@id']
      const created = await other.request(
        'POST',
        `/api/pages/${page.split('/').pop()}/generate-route`,
        {},
        {
          contentType: 'application/json',
          headers: { accept: 'application/json', cookie: `api_component=${encodeURIComponent(adminToken)}` },
        },
      )
      expect(created.status).toBe(201)
      expect(await other.sql("SELECT live_at FROM _acb_routes WHERE path = '/waits-too'")).toEqual([{ live_at: null }])
      expect((await other.get('/_api/_/routes//waits-too')).status).toBe(404)
    } finally {
      await other.close()
    }
  })
})
