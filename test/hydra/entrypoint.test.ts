import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server.close()
})

describe('entrypoint', () => {
  it('lists the IRI of every resource collection with the API prefix', async () => {
    const response = await server.get('/_api/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/ld+json')
    expect(response.body).toMatchObject({
      '@id': '/_api',
      '@type': 'Entrypoint',
      layout: '/_api/_/layouts',
      page: '/_api/_/pages',
      route: '/_api/_/routes',
      componentGroup: '/_api/_/component_groups',
      componentPosition: '/_api/_/component_positions',
      htmlContent: '/_api/component/html_contents',
      blogArticleData: '/_api/page_data/blog_article_datas',
      form: '/_api/component/forms',
      collection: '/_api/component/collections',
    })
  })

  it('links the Hydra API documentation', async () => {
    const response = await server.get('/_api/')
    expect(response.headers.get('link')).toBe(
      `<${server.url}/_api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
    )
  })

  it("the documentation page's assets are kept a day by anonymous readers' caches (the pipeline writes the header)", async () => {
    const page = await server.get('/_api/docs', { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    const asset = [...page.text.matchAll(/(?:src|href)="(\/_api\/docs\/assets\/[^"]+)"/g)]
      .map((m) => m[1]!)
      .find((url) => !url.endsWith('/init.js'))
    expect(asset).toBeDefined()
    const anonymous = await server.get(asset!)
    expect(anonymous.status).toBe(200)
    expect(anonymous.headers.get('cache-control')).toBe('public, max-age=86400')
    const signedIn = await server.get(asset!, { token: await server.tokenFor('ROLE_ADMIN') })
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store')
  })
})
