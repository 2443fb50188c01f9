import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { postFixture } from '../support/fixtures'

/**
 * Page and PageData (service contract, "Layout, Page, PageData, Route"):
 * single parent rule, PageData title and template page required.
 */

let server: TestServer
let admin: string
let layout: string
let template: string
let parentPage: string
let parentArticle: string

let counter = 0
const ref = (name: string) => `${name}-${++counter}`

const create = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, admin)

async function count(table: string): Promise<number> {
  return (await server.sql(`SELECT count(*)::int AS n FROM ${table}`))[0].n
}

function violationPaths(body: any): string[] {
  return (body?.violations ?? []).map((v: { propertyPath: string }) => v.propertyPath).sort()
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  layout = (await create('/_api/_/layouts', { reference: 'layout' }))['@id']
  template = (await create('/_api/_/pages', { reference: 'template', title: 'Template', layout, isTemplate: true }))[
    '@id'
  ]
  parentPage = (await create('/_api/_/pages', { reference: 'parent', title: 'Parent', layout }))['@id']
  parentArticle = (await create('/_api/page_data/blog_article_datas', { title: 'Parent article', page: template }))[
    '@id'
  ]
})
afterAll(async () => {
  await server?.close()
})

describe('Page: one parent at most', () => {
  it('accepts a page with parentPage only, and one with parentPageData only (either type)', async () => {
    const a = await server.post('/_api/_/pages', { reference: ref('p'), layout, parentPage }, { token: admin })
    expect(a.status).toBe(201)
    expect(a.body).toMatchObject({ parentPage, parentPageData: null })
    const b = await server.post(
      '/_api/_/pages',
      { reference: ref('p'), layout, parentPageData: parentArticle },
      { token: admin },
    )
    expect(b.status).toBe(201)
    expect(b.body).toMatchObject({ parentPage: null, parentPageData: parentArticle })
  })

  it('refuses parentPage and parentPageData together (422 naming both), nothing saved', async () => {
    const before = await count('_acb_pages')
    const response = await server.post(
      '/_api/_/pages',
      { reference: ref('p'), layout, parentPage, parentPageData: parentArticle },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(response.body['@type']).toBe('ConstraintViolation')
    expect(violationPaths(response.body)).toEqual(['parentPage', 'parentPageData'])
    expect(await count('_acb_pages')).toBe(before)
  })

  it('refuses a PATCH that adds the second parent (422) and keeps the first', async () => {
    const child = await create('/_api/_/pages', { reference: ref('child'), layout, parentPage })
    const response = await server.patch(child['@id'], { parentPageData: parentArticle }, { token: admin })
    expect(response.status).toBe(422)
    const after = await server.get(child['@id'])
    expect(after.body).toMatchObject({ parentPage, parentPageData: null })
  })

  it('accepts a PATCH that swaps one parent for the other in one request', async () => {
    const child = await create('/_api/_/pages', { reference: ref('child'), layout, parentPage })
    const response = await server.patch(
      child['@id'],
      { parentPage: null, parentPageData: parentArticle },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ parentPage: null, parentPageData: parentArticle })
  })

  it('requires a layout and a unique reference', async () => {
    const noLayout = await server.post('/_api/_/pages', { reference: ref('p') }, { token: admin })
    expect(noLayout.status).toBe(422)
    expect(violationPaths(noLayout.body)).toContain('layout')
    const taken = await server.post('/_api/_/pages', { reference: 'template', layout }, { token: admin })
    expect(taken.status).toBe(422)
    expect(violationPaths(taken.body)).toContain('reference')
  })
})

describe('PageData: one parent at most', () => {
  it('accepts parentPage only and parentPageData only (of another page data type too)', async () => {
    const a = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'A', page: template, parentPage },
      { token: admin },
    )
    expect(a.status).toBe(201)
    const news = await create('/_api/page_data/news_article_datas', { title: 'News parent', page: template })
    const b = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'B', page: template, parentPageData: news['@id'] },
      { token: admin },
    )
    expect(b.status).toBe(201)
    expect(b.body.parentPageData).toBe(news['@id'])
  })

  it('refuses parentPage and parentPageData together (422 naming both), nothing saved', async () => {
    const before = await count('_acb_blog_article_datas')
    const response = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'Both', page: template, parentPage, parentPageData: parentArticle },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['parentPage', 'parentPageData'])
    expect(await count('_acb_blog_article_datas')).toBe(before)
  })

  it('refuses a PATCH that adds the second parent on a news article (422), nothing changed', async () => {
    const news = await create('/_api/page_data/news_article_datas', { title: 'Child news', page: template, parentPage })
    const response = await server.patch(news['@id'], { parentPageData: parentArticle }, { token: admin })
    expect(response.status).toBe(422)
    // NewsArticleData is publishable: the admin's POST made a draft, which only a permitted caller reads.
    expect((await server.get(news['@id'], { token: admin })).body).toMatchObject({ parentPage, parentPageData: null })
  })
})

describe('PageData: title and template page', () => {
  it.each([
    ['missing', {}],
    ['null', { title: null }],
    ['empty', { title: '' }],
  ])('refuses a %s title (422 on title), nothing saved', async (_label, title) => {
    const before = await count('_acb_blog_article_datas')
    const response = await server.post(
      '/_api/page_data/blog_article_datas',
      { page: template, ...title },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['title'])
    expect(await count('_acb_blog_article_datas')).toBe(before)
  })

  it('refuses a PATCH that clears the title (422), title kept', async () => {
    const article = await create('/_api/page_data/blog_article_datas', { title: 'Keep me', page: template })
    const response = await server.patch(article['@id'], { title: null }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['title'])
    expect((await server.get(article['@id'])).body.title).toBe('Keep me')
  })

  it('refuses a title of the wrong type (422, not 500)', async () => {
    const response = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 42, page: template },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['title'])
  })

  it('requires the template page (422 on page) on both page data types', async () => {
    for (const path of ['/_api/page_data/blog_article_datas', '/_api/page_data/news_article_datas']) {
      const response = await server.post(path, { title: 'No template' }, { token: admin })
      expect(response.status).toBe(422)
      expect(violationPaths(response.body)).toEqual(['page'])
    }
  })

  it('refuses a PATCH that clears the template page (422)', async () => {
    const article = await create('/_api/page_data/blog_article_datas', { title: 'Templated', page: template })
    const response = await server.patch(article['@id'], { page: null }, { token: admin })
    expect(response.status).toBe(422)
    expect((await server.get(article['@id'])).body.page).toBe(template)
  })

  it('refuses a page IRI that points at something else (422 on page)', async () => {
    const response = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'Wrong template', page: parentArticle },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['page'])
  })

  it('creates a valid record: title, metaDescription, page, route null, createdAt and modifiedAt', async () => {
    const response = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'Hello', metaDescription: 'Meta', page: template },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({
      '@type': 'BlogArticleData',
      title: 'Hello',
      metaDescription: 'Meta',
      page: template,
      route: null,
      parentPage: null,
      parentPageData: null,
      htmlContent: null,
    })
    expect(typeof response.body.createdAt).toBe('string')
    expect(typeof response.body.modifiedAt).toBe('string')
  })
})
