import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
beforeAll(async () => { server = await startTestServer() })
afterAll(async () => { await server?.close() })

describe('probe', () => {
  it('prints', async () => {
    const p = server.payload
    const admin = await server.tokenFor('ROLE_ADMIN')
    const layout = await p.create({ collection: 'layouts', data: { reference: 'L1' } as never, depth: 0 })
    const page = await p.create({ collection: 'pages', data: { reference: 'P1', title: 'Page one', layout: layout.id, createdAt: '2020-01-01T00:00:00.000Z' } as never, depth: 0 })
    console.log('createdAt honoured?', page.createdAt)
    const route = await p.create({ collection: 'routes', data: { path: '/p1', page: page.id } as never, depth: 0 })
    for (let i = 0; i < 5; i++) await p.create({ collection: 'navigation_links', data: { label: 'n' + i, route: route.id } as never, depth: 0 })
    const html = await p.create({ collection: 'html_contents', data: { html: '<p>x</p>' } as never, depth: 0 })
    for (const [path, token] of [[`/_api/_/pages/${page.id}`, admin], [`/_api/component/html_contents/${html.id}`, admin], ['/_api/component/navigation_links', undefined], ['/_api/_/pages?page=5', undefined], ['/_api/_/pages?search=50%25', undefined]] as const) {
      const { result, queries, sql } = await server.countQueries(() => server.get(path, { token }))
      console.log(path, result.status, queries, JSON.stringify(result.body).slice(0, 400), sql.map((s) => s.slice(0, 200)).join('\n---\n'))
    }
    expect(1).toBe(1)
  })
})
