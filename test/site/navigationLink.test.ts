import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string
/** NavigationLink is publishable: an admin's POST without publishedAt makes a draft that anonymous callers never see. */
const now = () => new Date().toISOString()

beforeAll(async () => {
  // Queries of Payload's path: with the read model a repeated read is one statement, measured by the bench.
  server = await startTestServer({ options: { readModel: { enabled: false } } })
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => server.close())

describe('NavigationLink (reference site)', () => {
  it('url is rawPath when set, else the path of the linked route, and is read-only', async () => {
    const layout = await server.post('/_api/_/layouts', { reference: 'nav' }, { token: admin })
    const page = await server.post(
      '/_api/_/pages',
      { reference: 'about', layout: layout.body['@id'] },
      { token: admin },
    )
    const route = await server.post('/_api/_/routes', { path: '/about', page: page.body['@id'] }, { token: admin })
    const viaRoute = await server.post(
      '/_api/component/navigation_links',
      { label: 'About', route: route.body['@id'], url: '/ignored', publishedAt: now() },
      { token: admin },
    )
    expect(viaRoute.status).toBe(201)
    expect(viaRoute.body.url).toBe('/about')
    const raw = await server.post(
      '/_api/component/navigation_links',
      { label: 'Ext', rawPath: 'https://example.com/x', publishedAt: now() },
      { token: admin },
    )
    expect(raw.body.url).toBe('https://example.com/x')
    // Neither route nor rawPath: it cannot be published, so it stays an admin's draft.
    const none = await server.post('/_api/component/navigation_links', { label: 'Nothing' }, { token: admin })
    expect(none.status).toBe(201)
    expect(none.body.url).toBeNull()
    await server.patch(`/_api/_/routes/${route.body.id}`, { path: '/about-us' }, { token: admin })
    // Read anonymously: the published link follows its route's new path.
    expect((await server.get(viaRoute.body['@id'])).body.url).toBe('/about-us')
  })

  it('a collection of links costs one query for all their routes (no N+1)', async () => {
    const layout = await server.post('/_api/_/layouts', { reference: 'nav2' }, { token: admin })
    for (let i = 0; i < 8; i++) {
      const page = await server.post(
        '/_api/_/pages',
        { reference: `p${i}`, layout: layout.body['@id'] },
        { token: admin },
      )
      const route = await server.post('/_api/_/routes', { path: `/p${i}`, page: page.body['@id'] }, { token: admin })
      await server.post(
        '/_api/component/navigation_links',
        { label: `P${i}`, route: route.body['@id'], publishedAt: now() },
        { token: admin },
      )
    }
    const { result, queries } = await server.countQueries(() =>
      server.get('/_api/component/navigation_links?itemsPerPage=50'),
    )
    expect(result.status).toBe(200)
    expect(result.body.member.filter((m: { url: string | null }) => m.url?.startsWith('/p'))).toHaveLength(8)
    expect(queries).toBeLessThanOrEqual(4)
  })
})
