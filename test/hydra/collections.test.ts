import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'

/**
 * Reading collections through the JSON-LD API (issue 2, "Collections" and
 * "Search and order parameters"; contract "Collection parameters of the
 * core collections" rules 1-6, "Page data endpoints"; reference deployment
 * "Page data types"): the Hydra envelope, the PartialCollectionView, paging
 * bounds, the single `search`, `order[field]`, `isTemplate`, ignored
 * per-field parameters, page data search/order, and filters on items.
 */

let server: TestServer
let admin: string

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

async function make(collection: string, data: Record<string, unknown>): Promise<string> {
  const doc = await server.payload.create({ collection: collection as never, data: data as never, depth: 0 })
  return String(doc.id)
}

/** A creation date `n` minutes after a base date: fixtures get distinct, known dates. */
const at = (base: string, n: number) => new Date(Date.parse(base) + n * 60_000).toISOString()

async function list(path: string, token?: string): Promise<Record<string, any>> {
  const response = await server.get(path, { token })
  expect({ path, status: response.status, body: response.status === 200 ? 'ok' : response.body }).toEqual({
    path,
    status: 200,
    body: 'ok',
  })
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
  return response.body
}

const ids = (body: Record<string, any>) => (body.member as Array<{ id: string }>).map((m) => m.id)

function expectError(response: TestResponse, status: number, type: 'Error' | 'ConstraintViolation' = 'Error') {
  expect({ status: response.status, type: response.body?.['@type'] }).toEqual({ status, type })
  expect(response.body.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
}

// Fixture ids, by name.
const L: Record<string, string> = {}
const P: Record<string, string> = {}
const R: Record<string, string> = {}
const T: string[] = [] // titles, oldest first
const H: string[] = [] // html contents, oldest first
const B: Record<string, string> = {}
const N: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')

  // Layouts: search over reference and uiComponent.
  L.alpha = await make('layouts', { reference: 'site-alpha', uiComponent: 'WideShell', createdAt: at('2021-01-01', 0) })
  L.beta = await make('layouts', { reference: 'site-beta', uiComponent: 'NarrowShell', createdAt: at('2021-01-01', 1) })
  L.gamma = await make('layouts', { reference: 'gamma', uiComponent: 'AlphaShell', createdAt: at('2021-01-01', 2) })

  // Pages: search over title, reference and uiComponent (never layout.reference); isTemplate.
  P.home = await make('pages', {
    title: 'Welcome Home',
    reference: 'home',
    uiComponent: 'LandingPage',
    layout: L.alpha,
    createdAt: at('2022-01-01', 0),
  })
  P.about = await make('pages', {
    title: 'About us',
    reference: 'about',
    layout: L.beta,
    createdAt: at('2022-01-01', 1),
  })
  P.article = await make('pages', {
    title: 'Article template',
    reference: 'article-template',
    uiComponent: 'ArticleLayout',
    isTemplate: true,
    layout: L.gamma,
    createdAt: at('2022-01-01', 2),
  })
  P.news = await make('pages', {
    title: 'News template',
    reference: 'news-tpl',
    uiComponent: 'NewsPage',
    isTemplate: true,
    layout: L.alpha,
    createdAt: at('2022-01-01', 3),
  })

  // Routes: search over path.
  R.blog = await make('routes', { path: '/blog', page: P.home, createdAt: at('2023-01-01', 0) })
  R.post = await make('routes', { path: '/blog/first-post', page: P.about, createdAt: at('2023-01-01', 1) })
  R.about = await make('routes', { path: '/About-Us', redirect: R.blog, createdAt: at('2023-01-01', 2) })
  R.sale = await make('routes', { path: '/sale_50%', page: P.news, createdAt: at('2023-01-01', 3) })

  // Titles (a component without search/order): 7 items, paged by 3.
  for (let i = 0; i < 7; i++) T.push(await make('titles', { title: `Title ${i}`, createdAt: at('2024-01-01', i) }))

  // HtmlContent: 31 items, one more than the default page size.
  for (let i = 0; i < 31; i++)
    H.push(await make('html_contents', { html: `<p>${i}</p>`, createdAt: at('2024-02-01', i) }))

  // BlogArticleData: 13 records (12 per page); search over title, order by title/createdAt.
  const blogTitles = [
    'Payload tips',
    'Learning PAYLOAD',
    'Zebra crossing',
    'Alpha news',
    ...Array.from({ length: 9 }, (_, i) => `Post ${i + 1}`),
  ]
  for (const [i, title] of blogTitles.entries()) {
    B[title] = await make('blog_article_datas', { title, page: P.article, createdAt: at('2025-01-01', i) })
  }

  // NewsArticleData: search over title and summary.
  N.election = await make('news_article_datas', {
    title: 'Election night',
    summary: 'Votes counted',
    page: P.news,
    createdAt: at('2025-02-01', 0),
  })
  N.weather = await make('news_article_datas', {
    title: 'Weather',
    summary: 'A storm over the ELECTION',
    page: P.news,
    createdAt: at('2025-02-01', 1),
  })
  N.sports = await make('news_article_datas', { title: 'Sports', page: P.news, createdAt: at('2025-02-01', 2) })
})
afterAll(async () => {
  await server?.close()
})

describe('collection envelope', () => {
  it('has @context, @id, @type Collection, member, totalItems and view', async () => {
    const body = await list('/_api/_/layouts')
    expect(body['@context']).toBe('/_api/contexts/Layout')
    expect(body['@id']).toBe('/_api/_/layouts')
    expect(body['@type']).toBe('Collection')
    expect(body.totalItems).toBe(3)
    expect(Array.isArray(body.member)).toBe(true)
    expect(body.view['@type']).toBe('PartialCollectionView')
    // Hydra keys without prefix.
    expect(Object.keys(body).filter((k) => k.startsWith('hydra:'))).toEqual([])
  })

  it('members are full items (IRI, type, uuid, relations as IRIs) without their own @context', async () => {
    const body = await list('/_api/_/pages')
    expect(body.member).toHaveLength(4)
    for (const member of body.member) {
      expect(member['@context']).toBeUndefined()
      expect(member['@id']).toBe(`/_api/_/pages/${member.id}`)
      expect(member['@type']).toBe('Page')
      expect(member.id).toMatch(UUID)
      expect(member.layout).toMatch(/^\/_api\/_\/layouts\/[0-9a-f-]{36}$/)
      expect(typeof member.createdAt).toBe('string')
    }
    const home = body.member.find((m: { id: string }) => m.id === P.home)
    expect(home).toMatchObject({
      title: 'Welcome Home',
      reference: 'home',
      layout: `/_api/_/layouts/${L.alpha}`,
      route: `/_api/_/routes/${R.blog}`,
    })
  })

  it('a member is the same document as the item read on its own, minus @context', async () => {
    const collection = await list('/_api/_/routes')
    for (const member of collection.member) {
      const { '@context': context, ...item } = (await server.get(member['@id'])).body
      expect(context).toBe('/_api/contexts/Route')
      expect(member).toEqual(item)
    }
  })

  it('members carry _metadata in collections too, pages included (issue 15: every resource, persisted: true)', async () => {
    const body = await list('/_api/component/titles')
    expect(
      body.member.every((m: Record<string, unknown>) => typeof m._metadata === 'object' && m._metadata !== null),
    ).toBe(true)
    const pages = await list('/_api/_/pages')
    expect(pages.member.every((m: { _metadata?: { persisted?: boolean } }) => m._metadata?.persisted === true)).toBe(
      true,
    )
  })
})

describe('paging and the PartialCollectionView', () => {
  const base = '/_api/component/titles'
  const newestFirst = () => [...T].reverse()

  it('page 1 of 3: first, last and next; no previous', async () => {
    const body = await list(`${base}?itemsPerPage=3`)
    expect(body.totalItems).toBe(7)
    expect(ids(body)).toEqual(newestFirst().slice(0, 3))
    expect(body.view).toEqual({
      '@id': `${base}?itemsPerPage=3&page=1`,
      '@type': 'PartialCollectionView',
      first: `${base}?itemsPerPage=3&page=1`,
      last: `${base}?itemsPerPage=3&page=3`,
      next: `${base}?itemsPerPage=3&page=2`,
    })
  })

  it('page 2 of 3: first, last, previous and next', async () => {
    const body = await list(`${base}?itemsPerPage=3&page=2`)
    expect(body.totalItems).toBe(7)
    expect(ids(body)).toEqual(newestFirst().slice(3, 6))
    expect(body.view).toEqual({
      '@id': `${base}?itemsPerPage=3&page=2`,
      '@type': 'PartialCollectionView',
      first: `${base}?itemsPerPage=3&page=1`,
      last: `${base}?itemsPerPage=3&page=3`,
      previous: `${base}?itemsPerPage=3&page=1`,
      next: `${base}?itemsPerPage=3&page=3`,
    })
  })

  it('page 3 of 3: first, last and previous; no next', async () => {
    const body = await list(`${base}?page=3&itemsPerPage=3`)
    expect(ids(body)).toEqual(newestFirst().slice(6))
    expect(body.view).toEqual({
      '@id': `${base}?page=3&itemsPerPage=3`,
      '@type': 'PartialCollectionView',
      first: `${base}?page=1&itemsPerPage=3`,
      last: `${base}?page=3&itemsPerPage=3`,
      previous: `${base}?page=2&itemsPerPage=3`,
    })
  })

  it('following next from the first page visits every item once, in order', async () => {
    const seen: string[] = []
    let path: string | undefined = `${base}?itemsPerPage=3`
    let pages = 0
    while (path && pages < 10) {
      const body = await list(path)
      seen.push(...ids(body))
      path = body.view.next
      pages++
    }
    expect(pages).toBe(3)
    expect(seen).toEqual(newestFirst())
  })

  it('a page past the last is empty; previous points back to the last page, no next', async () => {
    const body = await list(`${base}?itemsPerPage=3&page=9`)
    expect(body.member).toEqual([])
    expect(body.totalItems).toBe(7)
    expect(body.view.last).toBe(`${base}?itemsPerPage=3&page=3`)
    expect(body.view.previous).toBe(`${base}?itemsPerPage=3&page=3`)
    expect(body.view.next).toBeUndefined()
  })

  it('a one-page collection has first = last and neither previous nor next', async () => {
    const body = await list(base)
    expect(body.member).toHaveLength(7)
    expect(body.view).toEqual({
      '@id': `${base}?page=1`,
      '@type': 'PartialCollectionView',
      first: `${base}?page=1`,
      last: `${base}?page=1`,
    })
  })

  it('an empty result still has a view with page 1 as first and last', async () => {
    const body = await list('/_api/_/routes?search=nothing-matches-this')
    expect(body.totalItems).toBe(0)
    expect(body.member).toEqual([])
    expect(body.view.first).toBe('/_api/_/routes?search=nothing-matches-this&page=1')
    expect(body.view.last).toBe('/_api/_/routes?search=nothing-matches-this&page=1')
    expect(body.view.next).toBeUndefined()
    expect(body.view.previous).toBeUndefined()
  })

  it('view links keep the search and order parameters, so following them continues the same listing', async () => {
    const first = await list('/_api/_/routes?search=BLOG&order[path]=desc&itemsPerPage=1')
    expect(first.totalItems).toBe(2)
    expect(ids(first)).toEqual([R.post])
    const next = new URL(first.view.next, server.url)
    expect(next.pathname).toBe('/_api/_/routes')
    expect(next.searchParams.get('search')).toBe('BLOG')
    expect(next.searchParams.get('order[path]')).toBe('desc')
    expect(next.searchParams.get('itemsPerPage')).toBe('1')
    expect(next.searchParams.get('page')).toBe('2')
    const second = await list(first.view.next)
    expect(ids(second)).toEqual([R.blog])
    expect(second.view.next).toBeUndefined()
  })

  it('the default page size is 30', async () => {
    const body = await list('/_api/component/html_contents', admin)
    expect(body.totalItems).toBe(31)
    expect(body.member).toHaveLength(30)
    expect(body.view.last).toBe('/_api/component/html_contents?page=2')
    expect(body.view.next).toBe('/_api/component/html_contents?page=2')
    const second = await list('/_api/component/html_contents?page=2', admin)
    expect(ids(second)).toEqual([H[0]])
  })

  it('itemsPerPage up to the maximum (100) is honoured', async () => {
    const body = await list('/_api/component/html_contents?itemsPerPage=100', admin)
    expect(body.member).toHaveLength(31)
    const small = await list('/_api/component/html_contents?itemsPerPage=1', admin)
    expect(ids(small)).toEqual([H[30]])
    expect(small.view.last).toBe('/_api/component/html_contents?itemsPerPage=1&page=31')
  })

  it.each(['101', '1000', '99999999999999999999'])('itemsPerPage=%s (over the maximum) is a 400', async (value) => {
    expectError(await server.get(`/_api/component/titles?itemsPerPage=${value}`), 400)
  })

  it.each(['0', '-1', '1.5', 'abc', '', '1e2', ' 3'])('itemsPerPage=%j is a 400', async (value) => {
    expectError(await server.get(`/_api/component/titles?itemsPerPage=${encodeURIComponent(value)}`), 400)
  })

  it.each(['0', '-1', '2.5', 'abc', '', '99999999999'])('page=%j is a 400', async (value) => {
    expectError(await server.get(`/_api/component/titles?page=${encodeURIComponent(value)}`), 400)
  })

  it('ties in the order never make paging skip or repeat an item', async () => {
    const group = await make('component_groups', { reference: 'paging-ties' })
    const sameTime = '2024-03-01T00:00:00.000Z'
    const created: string[] = []
    for (let i = 0; i < 50; i++) {
      created.push(await make('component_positions', { componentGroup: group, sortValue: 0, createdAt: sameTime }))
    }
    const seen: string[] = []
    for (let page = 1; page <= 8; page++) {
      seen.push(...ids(await list(`/_api/_/component_positions?itemsPerPage=7&page=${page}`)))
    }
    expect(seen).toHaveLength(50)
    expect([...seen].sort()).toEqual([...created].sort())
  })
})

describe('order', () => {
  it('lists are newest first when no order is given', async () => {
    expect(ids(await list('/_api/_/layouts'))).toEqual([L.gamma, L.beta, L.alpha])
    expect(ids(await list('/_api/_/pages'))).toEqual([P.news, P.article, P.about, P.home])
    expect(ids(await list('/_api/_/routes'))).toEqual([R.sale, R.about, R.post, R.blog])
  })

  it('order[createdAt]=asc|desc', async () => {
    expect(ids(await list('/_api/_/layouts?order[createdAt]=asc'))).toEqual([L.alpha, L.beta, L.gamma])
    expect(ids(await list('/_api/_/layouts?order[createdAt]=desc'))).toEqual([L.gamma, L.beta, L.alpha])
    expect(ids(await list('/_api/_/routes?order[createdAt]=asc'))).toEqual([R.blog, R.post, R.about, R.sale])
  })

  it('order[reference] on layouts and pages', async () => {
    expect(ids(await list('/_api/_/layouts?order[reference]=asc'))).toEqual([L.gamma, L.alpha, L.beta])
    expect(ids(await list('/_api/_/layouts?order[reference]=desc'))).toEqual([L.beta, L.alpha, L.gamma])
    expect(ids(await list('/_api/_/pages?order[reference]=asc'))).toEqual([P.about, P.article, P.home, P.news])
    expect(ids(await list('/_api/_/pages?order[reference]=desc'))).toEqual([P.news, P.home, P.article, P.about])
  })

  it('order[path] on routes', async () => {
    expect(ids(await list('/_api/_/routes?order[path]=asc'))).toEqual([R.about, R.blog, R.post, R.sale])
    expect(ids(await list('/_api/_/routes?order[path]=desc'))).toEqual([R.sale, R.post, R.blog, R.about])
  })

  it('order combines with search and isTemplate', async () => {
    expect(ids(await list('/_api/_/pages?isTemplate=true&order[reference]=desc'))).toEqual([P.news, P.article])
    expect(ids(await list('/_api/_/routes?search=blog&order[path]=asc'))).toEqual([R.blog, R.post])
  })

  it.each(['sideways', 'ascending', '', '1', 'asc,desc'])(
    'a direction other than asc/desc (%j) is a 422 ConstraintViolation',
    async (direction) => {
      const response = await server.get(`/_api/_/layouts?order[reference]=${encodeURIComponent(direction)}`)
      expectError(response, 422, 'ConstraintViolation')
      expect(response.body['@context']).toBe('/_api/contexts/ConstraintViolation')
      expect(response.body.violations).toEqual([expect.objectContaining({ propertyPath: 'order[reference]' })])
      expect(typeof response.body.violations[0].message).toBe('string')
    },
  )

  it.each([
    ['/_api/_/layouts', 'uiComponent'],
    ['/_api/_/layouts', 'nope'],
    ['/_api/_/pages', 'title'],
    ['/_api/_/pages', 'layout.reference'],
    ['/_api/_/routes', 'reference'],
    ['/_api/page_data/news_article_datas', 'summary'],
  ])('%s: an order field that is not allowed (%s) is a 400 Error', async (path, field) => {
    const response = await server.get(`${path}?order[${field}]=asc`, { token: admin })
    expectError(response, 400)
    expect(response.body['@context']).toBe('/_api/contexts/Error')
    expect(response.body.detail).toContain(field)
  })
})

describe('search', () => {
  it('/_/layouts: matches reference or uiComponent, case-insensitive, partial', async () => {
    expect(ids(await list('/_api/_/layouts?search=alpha'))).toEqual([L.gamma, L.alpha]) // uiComponent AlphaShell, reference site-alpha
    expect(ids(await list('/_api/_/layouts?search=NARROW'))).toEqual([L.beta])
    expect(ids(await list('/_api/_/layouts?search=shell'))).toEqual([L.gamma, L.beta, L.alpha])
    expect(ids(await list('/_api/_/layouts?search=site-'))).toEqual([L.beta, L.alpha])
    expect((await list('/_api/_/layouts?search=zzz')).totalItems).toBe(0)
  })

  it('/_/pages: matches title, reference or uiComponent', async () => {
    expect(ids(await list('/_api/_/pages?search=WELCOME'))).toEqual([P.home]) // title
    expect(ids(await list('/_api/_/pages?search=tpl'))).toEqual([P.news]) // reference
    expect(ids(await list('/_api/_/pages?search=landing'))).toEqual([P.home]) // uiComponent
    expect(ids(await list('/_api/_/pages?search=template'))).toEqual([P.news, P.article]) // title and reference
    expect(ids(await list('/_api/_/pages?search=layout'))).toEqual([P.article]) // uiComponent ArticleLayout
  })

  it('/_/pages: never matches layout.reference', async () => {
    const site = await list('/_api/_/pages?search=site')
    expect(site.totalItems).toBe(0)
    expect(site.member).toEqual([])
    expect((await list('/_api/_/pages?search=gamma')).totalItems).toBe(0)
  })

  it('/_/routes: matches path', async () => {
    expect(ids(await list('/_api/_/routes?search=blog'))).toEqual([R.post, R.blog])
    expect(ids(await list('/_api/_/routes?search=about-us'))).toEqual([R.about])
    expect(ids(await list('/_api/_/routes?search=FIRST-POST'))).toEqual([R.post])
    expect((await list('/_api/_/routes?search=%2F')).totalItems).toBe(4)
  })

  it('LIKE wildcards in the search term are matched literally', async () => {
    expect(ids(await list('/_api/_/routes?search=%25'))).toEqual([R.sale])
    expect(ids(await list('/_api/_/routes?search=_'))).toEqual([R.sale])
    expect(ids(await list('/_api/_/routes?search=e_5'))).toEqual([R.sale])
    expect((await list('/_api/_/routes?search=b_og')).totalItems).toBe(0)
    expect((await list('/_api/_/layouts?search=%25')).totalItems).toBe(0)
    expect((await list('/_api/_/pages?search=%5C')).totalItems).toBe(0)
  })

  it('an empty search filters nothing', async () => {
    expect((await list('/_api/_/routes?search=')).totalItems).toBe(4)
  })

  it('totalItems and the view count only the matching records', async () => {
    const body = await list('/_api/_/layouts?search=shell&itemsPerPage=2')
    expect(body.totalItems).toBe(3)
    expect(body.member).toHaveLength(2)
    expect(body.view.last).toBe('/_api/_/layouts?search=shell&itemsPerPage=2&page=2')
  })
})

describe('isTemplate', () => {
  it.each([
    ['isTemplate=true', ['news', 'article']],
    ['isTemplate=false', ['about', 'home']],
    ['isTemplate=1', ['news', 'article']],
    ['isTemplate=0', ['about', 'home']],
    ['isTemplate[]=true', ['news', 'article']],
    ['isTemplate[]=false', ['about', 'home']],
    ['isTemplate[]=true&isTemplate[]=false', ['news', 'article', 'about', 'home']],
    ['isTemplate[]=1&isTemplate[]=0', ['news', 'article', 'about', 'home']],
  ])('%s', async (query, expected) => {
    expect(ids(await list(`/_api/_/pages?${query}`))).toEqual(expected.map((name) => P[name]))
  })

  it('combines with search', async () => {
    expect(ids(await list('/_api/_/pages?isTemplate=true&search=news'))).toEqual([P.news])
    expect(ids(await list('/_api/_/pages?isTemplate=false&search=template'))).toEqual([])
  })

  it('is only a filter of pages (ignored on layouts and routes)', async () => {
    expect((await list('/_api/_/layouts?isTemplate=true')).totalItems).toBe(3)
    expect((await list('/_api/_/routes?isTemplate=false')).totalItems).toBe(4)
  })
})

describe('old per-field parameters are ignored', () => {
  it.each([
    ['/_api/_/layouts?reference=site-alpha', 3],
    ['/_api/_/layouts?uiComponent=WideShell', 3],
    ['/_api/_/layouts?reference[]=site-alpha&reference[]=gamma', 3],
    ['/_api/_/pages?title=About%20us', 4],
    ['/_api/_/pages?reference=home', 4],
    ['/_api/_/pages?uiComponent=LandingPage', 4],
    ['/_api/_/pages?layout.reference=site-alpha', 4],
    ['/_api/_/routes?path=/blog', 4],
    ['/_api/_/routes?path[]=/blog&path[]=/About-Us', 4],
    ['/_api/_/routes?where[path][equals]=/blog', 4],
    ['/_api/page_data/blog_article_datas?title=Zebra%20crossing', 13],
    ['/_api/page_data/news_article_datas?summary=Votes%20counted', 3],
    ['/_api/page_data/news_article_datas?title=Weather', 3],
  ])('%s returns every record', async (path, total) => {
    expect((await list(path, admin)).totalItems).toBe(total)
  })
})

describe('page data collections', () => {
  const blogs = '/_api/page_data/blog_article_datas'
  const news = '/_api/page_data/news_article_datas'

  it('BlogArticleData: 12 per page, newest first', async () => {
    const body = await list(blogs)
    expect(body['@type']).toBe('Collection')
    expect(body['@context']).toBe('/_api/contexts/BlogArticleData')
    expect(body.totalItems).toBe(13)
    expect(body.member).toHaveLength(12)
    expect(body.member[0].title).toBe('Post 9')
    expect(body.view.last).toBe(`${blogs}?page=2`)
    expect(body.view.next).toBe(`${blogs}?page=2`)
    const second = await list(`${blogs}?page=2`)
    expect(second.member.map((m: { title: string }) => m.title)).toEqual(['Payload tips'])
  })

  it('BlogArticleData: search over title (partial, case-insensitive)', async () => {
    expect(ids(await list(`${blogs}?search=payload`))).toEqual([B['Learning PAYLOAD'], B['Payload tips']])
    expect(ids(await list(`${blogs}?search=ZEBRA`))).toEqual([B['Zebra crossing']])
    expect((await list(`${blogs}?search=post`)).totalItems).toBe(9)
  })

  it('BlogArticleData: order by title and createdAt', async () => {
    const byTitle = await list(`${blogs}?order[title]=asc&itemsPerPage=3`)
    expect(byTitle.member.map((m: { title: string }) => m.title)).toEqual([
      'Alpha news',
      'Learning PAYLOAD',
      'Payload tips',
    ])
    const byTitleDesc = await list(`${blogs}?order[title]=desc&itemsPerPage=2`)
    expect(byTitleDesc.member.map((m: { title: string }) => m.title)).toEqual(['Zebra crossing', 'Post 9'])
    const oldest = await list(`${blogs}?order[createdAt]=asc&itemsPerPage=1`)
    expect(ids(oldest)).toEqual([B['Payload tips']])
  })

  it('NewsArticleData: search over title and summary', async () => {
    expect(ids(await list(`${news}?search=election`, admin))).toEqual([N.weather, N.election]) // summary, title
    expect(ids(await list(`${news}?search=STORM`, admin))).toEqual([N.weather])
    expect(ids(await list(`${news}?search=counted`, admin))).toEqual([N.election])
    expect(ids(await list(`${news}?search=sports`, admin))).toEqual([N.sports]) // summary null does not drop it
  })

  it('NewsArticleData: order by title and createdAt, newest first by default', async () => {
    expect(ids(await list(news, admin))).toEqual([N.sports, N.weather, N.election])
    expect(ids(await list(`${news}?order[title]=desc`, admin))).toEqual([N.weather, N.sports, N.election])
    expect(ids(await list(`${news}?order[title]=asc`, admin))).toEqual([N.election, N.sports, N.weather])
    expect(ids(await list(`${news}?order[createdAt]=asc`, admin))).toEqual([N.election, N.weather, N.sports])
  })

  it('page data: an invalid order direction is a 422', async () => {
    expectError(await server.get(`${blogs}?order[title]=up`), 422, 'ConstraintViolation')
  })
})

describe('filters on single items', () => {
  it('a matching search gives the item (200), a non-matching one a 404', async () => {
    expect((await server.get(`/_api/_/pages/${P.home}?search=welcome`)).status).toBe(200)
    expect((await server.get(`/_api/_/pages/${P.home}?search=LANDING`)).status).toBe(200)
    expectError(await server.get(`/_api/_/pages/${P.home}?search=about`), 404)

    expect((await server.get(`/_api/_/layouts/${L.alpha}?search=wide`)).status).toBe(200)
    expectError(await server.get(`/_api/_/layouts/${L.alpha}?search=narrow`), 404)

    expect((await server.get(`/_api/_/routes/${R.post}?search=first`)).status).toBe(200)
    expectError(await server.get(`/_api/_/routes/${R.post}?search=sale`), 404)

    expect((await server.get(`/_api/page_data/blog_article_datas/${B['Zebra crossing']}?search=zebra`)).status).toBe(
      200,
    )
    expectError(await server.get(`/_api/page_data/blog_article_datas/${B['Zebra crossing']}?search=payload`), 404)

    expect(
      (await server.get(`/_api/page_data/news_article_datas/${N.weather}?search=storm`, { token: admin })).status,
    ).toBe(200)
    expectError(await server.get(`/_api/page_data/news_article_datas/${N.weather}?search=votes`, { token: admin }), 404)
  })

  it('isTemplate filters page items too', async () => {
    expect((await server.get(`/_api/_/pages/${P.article}?isTemplate=true`)).status).toBe(200)
    expectError(await server.get(`/_api/_/pages/${P.article}?isTemplate=false`), 404)
    expect((await server.get(`/_api/_/pages/${P.article}?isTemplate[]=true&isTemplate[]=false`)).status).toBe(200)
  })

  it('per-field parameters do not filter items either', async () => {
    expect((await server.get(`/_api/_/pages/${P.home}?title=nothing`)).status).toBe(200)
    expect((await server.get(`/_api/_/routes/${R.blog}?path=/elsewhere`)).status).toBe(200)
  })
})
