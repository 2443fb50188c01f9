import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { createRecord } from '../../support/fixtures'
import { routeFixtures } from '../../support/routeFixtures'

/**
 * Issue 11, "the null UUID": with routable_security set, page data whose
 * component property is empty made the access query of every component
 * read pass the string "null" as a UUID (PostgreSQL: invalid input syntax
 * for type uuid), so anonymous reads of a held component answered 400.
 */

let server: TestServer
const ids: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer({ options: { routableSecurity: 'ROLE_SUPER_ADMIN' } })
  const fx = routeFixtures(server.payload)
  const create = (collection: string, data: Record<string, unknown>) => createRecord(server.payload, collection, data)
  const layout = await create('layouts', { reference: fx.unique('layout') })
  const template = await create('pages', { reference: fx.unique('template'), layout, isTemplate: true })
  ids.held = await create('html_contents', { html: '<p>held</p>', publishedAt: new Date().toISOString() })
  ids.article = await create('blog_article_datas', { title: 'Routed article', page: template, htmlContent: ids.held })
  await fx.route('/null-uuid-article', { pageData: { relationTo: 'blog_article_datas', value: ids.article } })
  // Other page data whose component property is empty (NULL in its column).
  ids.empty = await create('blog_article_datas', { title: 'No content', page: template })
  await fx.route('/null-uuid-empty', { pageData: { relationTo: 'blog_article_datas', value: ids.empty } })
  ids.unrouted = await create('blog_article_datas', { title: 'Unrouted, no content', page: template })
})
afterAll(async () => {
  await server?.close()
})

describe('fault: page data with an empty component property (the "null" UUID)', () => {
  it('an anonymous GET of a published HtmlContent held by routed BlogArticleData answers 200, not 400', async () => {
    const response = await server.get(`/_api/component/html_contents/${ids.held}`)
    expect(response.status).toBe(200)
    expect(response.body['@id']).toBe(`/_api/component/html_contents/${ids.held}`)
  })

  it('the collection of HtmlContents and the page data read answer 200 for anonymous callers', async () => {
    const list = await server.get('/_api/component/html_contents')
    expect(list.status).toBe(200)
    expect(list.body.member.map((m: { '@id': string }) => m['@id'])).toContain(
      `/_api/component/html_contents/${ids.held}`,
    )
    expect((await server.get(`/_api/page_data/blog_article_datas/${ids.empty}`)).status).toBe(200)
  })

  it("Payload's REST API reads it too (the same access query)", async () => {
    const response = await server.get(`/api/html_contents/${ids.held}`, { headers: { accept: 'application/json' } })
    expect(response.status).toBe(200)
    const list = await server.get('/api/html_contents', { headers: { accept: 'application/json' } })
    expect(list.status).toBe(200)
    expect(list.body.docs.map((d: { id: string }) => d.id)).toContain(ids.held)
  })
})
