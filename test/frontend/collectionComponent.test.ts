import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'

/**
 * The Collection component (contract: "Collection component"): its
 * read-only `collection` is the proxied collection request, run in-process
 * with the caller's own permissions, over real HTTP on the demo site.
 */

let server: TestServer
let admin: string
const P = '/_api'

const past = () => new Date(Date.now() - 60_000).toISOString()

async function collectionComponent(data: Record<string, unknown>): Promise<string> {
  const response = await server.post(`${P}/component/collections`, data, { token: admin })
  expect(response.status).toBe(201)
  return response.body['@id'] as string
}

let blogListing: string
let news: string
let template: string

beforeAll(async () => {
  server = await startTestServer()
  await seedDemo(server.payload, { apiPrefix: P })
  admin = await server.tokenFor('ROLE_ADMIN')
  const listing = await server.get(`${P}/component/collections`)
  blogListing = listing.body.member[0]['@id']
  template = (await server.get(`${P}/_/pages?search=blog_article_template`, { token: admin })).body.member[0]['@id']
  // News (publishable page data): one published, one draft only.
  await server.post(
    `${P}/page_data/news_article_datas`,
    { title: 'Published news', summary: 'out', page: template, publishedAt: past() },
    { token: admin },
  )
  await server.post(
    `${P}/page_data/news_article_datas`,
    { title: 'Draft news', summary: 'not yet', page: template },
    { token: admin },
  )
  news = await collectionComponent({ resourceIri: '/page_data/news_article_datas' })
})
afterAll(async () => {
  await server?.close()
})

describe('the demo blog listing', () => {
  it('is filled for an anonymous reader: members, totalItems, a view paging through the component itself', async () => {
    const response = await server.get(blogListing)
    expect(response.status).toBe(200)
    const { collection } = response.body
    expect(collection).toMatchObject({
      '@id': `${P}/page_data/blog_article_datas`,
      '@type': 'Collection',
      totalItems: 2,
    })
    expect(collection.member.map((m: { title: string }) => m.title).sort()).toEqual(['First article', 'Second article'])
    expect(collection.member[0]['@type']).toBe('BlogArticleData')
    expect(collection.view).toEqual({
      '@id': `${blogListing}?page=1`,
      '@type': 'PartialCollectionView',
      first: `${blogListing}?page=1`,
      last: `${blogListing}?page=1`,
    })
    expect(response.body.resourceIri).toBe(`${P}/page_data/blog_article_datas`)
  })

  it('applies request parameters: ?search= narrows, and the view keeps them', async () => {
    const response = await server.get(`${blogListing}?search=second`)
    expect(response.body.collection.totalItems).toBe(1)
    expect(response.body.collection.member[0].title).toBe('Second article')
    expect(response.body.collection.view['@id']).toBe(`${blogListing}?search=second&page=1`)
  })
})

describe('defaultQueryParameters and perPage', () => {
  let defaults: string
  let paged: string
  beforeAll(async () => {
    defaults = await collectionComponent({
      resourceIri: `${P}/page_data/blog_article_datas`,
      defaultQueryParameters: { search: 'first', order: { title: 'asc' } },
    })
    paged = await collectionComponent({
      resourceIri: `${P}/page_data/blog_article_datas`,
      perPage: 1,
      defaultQueryParameters: { order: { title: 'asc' } },
    })
  })

  it('appends the defaults to the proxied request', async () => {
    const { collection } = (await server.get(defaults)).body
    expect(collection.member.map((m: { title: string }) => m.title)).toEqual(['First article'])
  })

  it('lets a request parameter override a default, an empty value too', async () => {
    expect(
      (await server.get(`${defaults}?search=second`)).body.collection.member.map((m: { title: string }) => m.title),
    ).toEqual(['Second article'])
    expect(
      (await server.get(`${defaults}?search=`)).body.collection.member.map((m: { title: string }) => m.title),
    ).toEqual(['First article', 'Second article'])
  })

  it('pages by perPage, with first/last/next/previous on the component IRI', async () => {
    const first = (await server.get(paged)).body.collection
    expect(first.member.map((m: { title: string }) => m.title)).toEqual(['First article'])
    expect(first.totalItems).toBe(2)
    expect(first.view).toMatchObject({ first: `${paged}?page=1`, last: `${paged}?page=2`, next: `${paged}?page=2` })
    const second = (await server.get(`${paged}?page=2`)).body.collection
    expect(second.member.map((m: { title: string }) => m.title)).toEqual(['Second article'])
    expect(second.view).toMatchObject({ '@id': `${paged}?page=2`, previous: `${paged}?page=1` })
    expect(second.view.next).toBeUndefined()
  })

  it('answers a bad parameter with a 4xx, not a 500', async () => {
    expect((await server.get(`${paged}?page=abc`)).status).toBe(400)
    expect((await server.get(`${paged}?order[title]=sideways`)).status).toBe(422)
  })
})

describe("the caller's own permissions apply (attack: reading drafts through a Collection)", () => {
  it('never shows an anonymous reader a draft through the proxy', async () => {
    const { collection } = (await server.get(news)).body
    expect(collection.member.map((m: { title: string }) => m.title)).toEqual(['Published news'])
    expect(collection.totalItems).toBe(1)
  })

  it('never shows drafts through ?published=false either', async () => {
    const response = await server.get(`${news}?published=false`)
    expect(response.body.collection?.member?.map((m: { title: string }) => m.title) ?? []).not.toContain('Draft news')
  })

  it('shows an admin the drafts, as a direct GET of the collection would', async () => {
    const direct = (await server.get(`${P}/page_data/news_article_datas`, { token: admin })).body
    const { collection } = (await server.get(news, { token: admin })).body
    expect(collection.member.map((m: { title: string }) => m.title).sort()).toEqual(
      direct.member.map((m: { title: string }) => m.title).sort(),
    )
    expect(collection.member.map((m: { title: string }) => m.title)).toContain('Draft news')
  })

  it('is null when the caller may not list the resource (attack: listing users through a Collection)', async () => {
    const users = await collectionComponent({ resourceIri: `${P}/users` })
    const anonymous = await server.get(users)
    expect(anonymous.status).toBe(200)
    expect(anonymous.body.collection).toBeNull()
    expect(anonymous.text).not.toContain('@example.com')
  })
})

describe('reading several Collections at once', () => {
  it('costs no extra query per Collection that asks the same thing', async () => {
    // Payload's path (the read model's lookup, skipped on the first read after this instance's own write, and its
    // stores, a few milliseconds after an answer, are not the Collections' queries).
    const measure = async () =>
      (await server.countQueries(() => server.get(`${P}/component/collections?itemsPerPage=100`))).sql.filter(
        (text) => !text.includes('_read_model'),
      ).length
    const before = await measure()
    const list = (await server.get(`${P}/component/collections?itemsPerPage=100`)).body
    for (let i = 0; i < 4; i++)
      await server.payload.create({
        collection: 'collections',
        data: { resourceIri: '/page_data/blog_article_datas', perPage: 12 } as never,
        depth: 0,
      })
    const after = await measure()
    const grown = (await server.get(`${P}/component/collections?itemsPerPage=100`)).body
    expect(grown.totalItems).toBe(list.totalItems + 4)
    expect(after).toBe(before)
    for (const member of grown.member.filter(
      (m: { resourceIri: string; perPage: number; defaultQueryParameters: unknown }) =>
        m.resourceIri === `${P}/page_data/blog_article_datas` && m.perPage === 12 && !m.defaultQueryParameters,
    )) {
      expect(member.collection.totalItems).toBe(2)
      expect(member.collection.view['@id']).toBe(`${member['@id']}?page=1`)
    }
  })

  it('does not fill a Collection listed through another Collection (no recursion)', async () => {
    const meta = await collectionComponent({ resourceIri: `${P}/component/collections` })
    const { collection } = (await server.get(meta)).body
    expect(collection.totalItems).toBeGreaterThan(1)
    for (const member of collection.member) expect(member.collection).toBeNull()
  })
})

describe('resourceIri', () => {
  it('is stored in one canonical form and served with the API prefix, whatever form was sent', async () => {
    const forms = [
      '/page_data/blog_article_datas',
      `${P}/page_data/blog_article_datas`,
      `${server.url}${P}/page_data/blog_article_datas/`,
    ]
    for (const resourceIri of forms) {
      const iri = await collectionComponent({ resourceIri })
      expect((await server.get(iri)).body.resourceIri).toBe(`${P}/page_data/blog_article_datas`)
      const [row] = await server.sql(`SELECT resource_iri FROM _acb_collections WHERE id = $1`, [iri.split('/').pop()])
      expect(row.resource_iri).toBe('/page_data/blog_article_datas')
    }
  })

  it('refuses an item IRI or something that is no resource (422)', async () => {
    for (const resourceIri of [
      `${P}/page_data/blog_article_datas/00000000-0000-4000-8000-000000000000`,
      '/nothing/here',
    ]) {
      const response = await server.post(`${P}/component/collections`, { resourceIri }, { token: admin })
      expect(response.status).toBe(422)
      expect(response.body.violations[0].propertyPath).toBe('resourceIri')
    }
  })
})
