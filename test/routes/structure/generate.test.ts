/**
 * POST /_/routes/generate (service contract, "Routes" endpoints and "Route
 * generation rules"): parent route path + title slug through any number of
 * levels, a -1 style suffix on conflict, the old route of the record turned
 * into a redirect to the new one, 422 under an unrouted parent, and a
 * RouteGenerator option whose generatePath gives the path before any suffix.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { fixtures, idOf, startStructureSite } from '../../support/routeStructure'

let server: TestServer
let admin: string
let f: ReturnType<typeof fixtures>
let layout: string
let template: string

beforeAll(async () => {
  ;({ server, admin, f, layout, template } = await startStructureSite())
})
afterAll(async () => {
  await server?.close()
})

describe('generated paths', () => {
  it('gives a top-level page /<title slug> (201, the route in the body)', async () => {
    const page = await f.page(layout, { title: 'Über uns & Co.' })
    const response = await f.generate({ page })
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({
      '@type': 'Route',
      path: '/uber-uns-co',
      page,
      pageData: null,
      redirect: null,
    })
    expect((await server.get(page, { token: admin })).body.route).toBe(response.body['@id'])
  })

  it('falls back to the page reference when the page has no title', async () => {
    const page = (await f.post('/_api/_/pages', { reference: 'No Title Ref', layout }))['@id']
    const response = await f.generate({ page })
    expect(response.status).toBe(201)
    expect(response.body.path).toBe('/no-title-ref')
  })

  it('prefixes the parent route path through three levels, for pages and page data', async () => {
    const top = await f.page(layout, { title: 'Docs' })
    expect((await f.generate({ page: top })).body.path).toBe('/docs')
    const middle = await f.page(layout, { title: 'Guides', parentPage: top })
    expect((await f.generate({ page: middle })).body.path).toBe('/docs/guides')
    const article = await f.article(template, 'Getting Started', { parentPage: middle })
    const third = await f.generate({ pageData: article })
    expect(third.status).toBe(201)
    expect(third.body).toMatchObject({ path: '/docs/guides/getting-started', pageData: article, page: null })
    const child = await f.article(template, 'Step One', { parentPageData: article })
    expect((await f.generate({ pageData: child })).body.path).toBe('/docs/guides/getting-started/step-one')
  })

  it('adds -1, -2 on conflicts, also with an explicit route already on the path', async () => {
    const paths: string[] = []
    for (let i = 0; i < 3; i++)
      paths.push((await f.generate({ page: await f.page(layout, { title: 'Same Title' }) })).body.path)
    expect(paths).toEqual(['/same-title', '/same-title-1', '/same-title-2'])
    await f.route('/contact', { page: await f.page(layout, { title: 'Elsewhere' }) })
    expect((await f.generate({ page: await f.page(layout, { title: 'Contact' }) })).body.path).toBe('/contact-1')
  })

  it('treats LIKE wildcards in a path literally when looking for conflicts', async () => {
    await f.route('/percent_x-1', { page: await f.page(layout, { title: 'Taken' }) })
    // "/percent-x" must not be taken by "/percent_x-1" (an unescaped _ would match any character).
    expect((await f.generate({ page: await f.page(layout, { title: 'Percent X' }) })).body.path).toBe('/percent-x')
  })
})

describe('a record that already had a route', () => {
  it('turns the old route into a redirect to the new one; one route serves the page', async () => {
    const page = await f.page(layout, { title: 'Old Name' })
    const first = (await f.generate({ page })).body
    await server.patch(page, { title: 'New Name' }, { token: admin })
    const second = await f.generate({ page })
    expect({ status: second.status, body: second.status === 201 ? null : second.body }).toEqual({
      status: 201,
      body: null,
    })
    expect(second.body).toMatchObject({ path: '/new-name', page })
    const routes = await f.routes()
    expect(routes.get('/old-name')).toEqual({
      id: idOf(first['@id']),
      page: null,
      pageData: null,
      redirect: idOf(second.body['@id']),
    })
    expect([...routes.values()].filter((r) => r.page === idOf(page))).toHaveLength(1)
    expect((await server.get(page, { token: admin })).body.route).toBe(second.body['@id'])
  })

  it('does the same for page data, keeping the record under its parent prefix', async () => {
    const parent = await f.page(layout, { title: 'News' })
    await f.generate({ page: parent })
    const article = await f.article(template, 'Draft Headline', { parentPage: parent })
    const first = (await f.generate({ pageData: article })).body
    await server.patch(article, { title: 'Final Headline' }, { token: admin })
    const second = (await f.generate({ pageData: article })).body
    expect(second.path).toBe('/news/final-headline')
    const old = await server.get(first['@id'], { token: admin })
    expect(old.body).toMatchObject({ path: '/news/draft-headline', pageData: null, redirect: second['@id'] })
  })

  it('takes back its own redirect when renamed back (200): no -1 suffix, the chain turned around', async () => {
    const page = await f.page(layout, { title: 'Ping' })
    const ping = (await f.generate({ page })).body
    await server.patch(page, { title: 'Pong' }, { token: admin })
    const pong = (await f.generate({ page })).body
    await server.patch(page, { title: 'Ping' }, { token: admin })
    const back = await f.generate({ page })
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({ '@id': ping['@id'], path: '/ping', page, redirect: null })
    const routes = await f.routes()
    expect(routes.get('/pong')).toMatchObject({ id: idOf(pong['@id']), page: null, redirect: idOf(ping['@id']) })
    expect(routes.has('/ping-1')).toBe(false)
  })

  it("takes a key sent as null for one not sent: {page: null, pageData: IRI} generates the page data's route", async () => {
    const page = await f.page(layout, { title: 'Null Key Parent' })
    await f.generate({ page })
    const article = await f.article(template, 'Null Key Article', { parentPage: page })
    const response = await f.generate({ page: null, pageData: article })
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({ path: '/null-key-parent/null-key-article', pageData: article })
  })

  it('keeps the route when the path would not change (200, nothing added)', async () => {
    const page = await f.page(layout, { title: 'Stable' })
    const first = (await f.generate({ page })).body
    const before = (await f.routes()).size
    const again = await f.generate({ page })
    expect(again.status).toBe(200)
    expect(again.body['@id']).toBe(first['@id'])
    expect((await f.routes()).size).toBe(before)
  })
})

describe('refusals', () => {
  it('refuses a record whose parent has no route (422), nothing created', async () => {
    const unrouted = await f.page(layout, { title: 'Unrouted Parent' })
    const child = await f.page(layout, { title: 'Orphan Child', parentPage: unrouted })
    const before = (await f.routes()).size
    const response = await f.generate({ page: child })
    expect(response.status).toBe(422)
    expect(response.body.violations[0]).toMatchObject({ propertyPath: 'page', code: 'unrouted_parent' })
    const article = await f.article(template, 'Orphan Article', { parentPage: unrouted })
    expect((await f.generate({ pageData: article })).status).toBe(422)
    expect((await f.routes()).size).toBe(before)
  })

  it('refuses a title with nothing to slug (422 on title)', async () => {
    const response = await f.generate({ page: await f.page(layout, { title: '!!!' }) })
    expect(response.status).toBe(422)
    expect(response.body.violations[0].propertyPath).toBe('title')
  })

  it.each([
    ['a non-IRI string', { page: 'hello' }, 'page'],
    ['an unknown IRI', { page: '/_api/_/pages/00000000-0000-4000-8000-000000000000' }, 'page'],
    ['a layout IRI as page (wrong type)', 'layout', 'page'],
    ['a page IRI as pageData (wrong type)', 'template-as-data', 'pageData'],
    ['a number', { page: 12 }, 'page'],
    ['both page and pageData', 'both', 'pageData'],
    ['neither', {}, 'page'],
  ])('refuses %s with 422, never 500', async (_label, body, property) => {
    const payload =
      body === 'layout'
        ? { page: layout }
        : body === 'template-as-data'
          ? { pageData: template }
          : body === 'both'
            ? { page: template, pageData: template }
            : body
    const response = await f.generate(payload as Record<string, unknown>)
    expect(response.status).toBe(422)
    expect(response.body.violations[0].propertyPath).toBe(property)
  })

  it('refuses a body that is not an object (4xx), and wrong media types (415)', async () => {
    const array = await server.post('/_api/_/routes/generate', [1], { token: admin })
    expect(array.status).toBe(422)
    const text = await server.request('POST', '/_api/_/routes/generate', undefined, {
      token: admin,
      raw: 'page=x',
      contentType: 'text/plain',
    })
    expect(text.status).toBe(415)
  })

  it('refuses anonymous callers (401) and non-admins (403) before reading the body (privilege escalation)', async () => {
    const page = await f.page(layout, { title: 'Guarded' })
    const before = (await f.routes()).size
    expect((await server.post('/_api/_/routes/generate', { page })).status).toBe(401)
    expect((await f.generate({ page }, await server.tokenFor('ROLE_USER'))).status).toBe(403)
    expect((await f.generate({ page: 'not-an-iri' }, await server.tokenFor('ROLE_USER'))).status).toBe(403)
    expect((await f.routes()).size).toBe(before)
  })
})

describe('a custom RouteGenerator', () => {
  it('uses generatePath as the path before the conflict suffix', async () => {
    const calls: Array<{ title: string; parentPath: string | null; collection: string }> = []
    const custom = await startTestServer({
      options: {
        routeGenerator: {
          generatePath: ({ title, parentPath, collection }) => {
            calls.push({ title, parentPath, collection })
            return `${parentPath ?? ''}/p/${title.toLowerCase()}`
          },
        },
      },
    })
    try {
      const token = await custom.tokenFor('ROLE_ADMIN')
      const g = fixtures(custom, () => token)
      const l = await g.layout()
      const one = await g.page(l, { title: 'Alpha' })
      const two = await g.page(l, { title: 'Alpha' })
      expect((await g.generate({ page: one })).body.path).toBe('/p/alpha')
      expect((await g.generate({ page: two })).body.path).toBe('/p/alpha-1')
      const child = await g.page(l, { title: 'Beta', parentPage: one })
      expect((await g.generate({ page: child })).body.path).toBe('/p/alpha/p/beta')
      expect(calls).toEqual([
        { title: 'Alpha', parentPath: null, collection: 'pages' },
        { title: 'Alpha', parentPath: null, collection: 'pages' },
        { title: 'Beta', parentPath: '/p/alpha', collection: 'pages' },
      ])
    } finally {
      await custom.close()
    }
  })
})
