import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { postFixture } from '../support/fixtures'

/**
 * Route (service contract, "Layout, Page, PageData, Route"): a path that
 * starts with / and is unique, pointing at a page, a page data record or
 * (as a redirect) another route.
 */

let server: TestServer
let admin: string
let layout: string
let page: string
let article: string

const create = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, admin)

async function routePaths(): Promise<string[]> {
  return (await server.sql('SELECT path FROM _acb_routes ORDER BY path')).map((r) => r.path)
}

function violationPaths(body: any): string[] {
  return (body?.violations ?? []).map((v: { propertyPath: string }) => v.propertyPath)
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  layout = (await create('/_api/_/layouts', { reference: 'layout' }))['@id']
  page = (await create('/_api/_/pages', { reference: 'page', title: 'Page', layout }))['@id']
  article = (await create('/_api/page_data/blog_article_datas', { title: 'Article', page }))['@id']
})
// A page or page data record has one route: each test starts with none.
beforeEach(async () => {
  await server.sql('DELETE FROM _acb_routes')
})
afterAll(async () => {
  await server?.close()
})

describe('Route targets', () => {
  it('accepts a route to a page', async () => {
    const response = await server.post('/_api/_/routes', { path: '/to-page', page }, { token: admin })
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({ '@type': 'Route', path: '/to-page', page, pageData: null, redirect: null })
  })

  it('accepts a route to page data, and the page data shows it as its route', async () => {
    const response = await server.post('/_api/_/routes', { path: '/to-article', pageData: article }, { token: admin })
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({ page: null, pageData: article })
    expect((await server.get(article)).body.route).toBe(response.body['@id'])
  })

  it('accepts a redirect to another route', async () => {
    const target = await create('/_api/_/routes', { path: '/redirect-target', page })
    const response = await server.post('/_api/_/routes', { path: '/old', redirect: target['@id'] }, { token: admin })
    expect(response.status).toBe(201)
    expect(response.body.redirect).toBe(target['@id'])
  })

  it('refuses a route with no page, pageData or redirect (422), nothing saved', async () => {
    const before = await routePaths()
    const response = await server.post('/_api/_/routes', { path: '/nowhere' }, { token: admin })
    expect(response.status).toBe(422)
    expect(response.body['@type']).toBe('ConstraintViolation')
    expect(violationPaths(response.body)).toEqual(['page'])
    expect(await routePaths()).toEqual(before)
  })

  it('refuses a route to both a page and page data (422 on pageData), nothing saved', async () => {
    const response = await server.post('/_api/_/routes', { path: '/both', page, pageData: article }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageData'])
    expect(await routePaths()).not.toContain('/both')
  })

  it('refuses a PATCH that removes the only target (422), route unchanged', async () => {
    const route = await create('/_api/_/routes', { path: '/keep-target', page })
    const response = await server.patch(route['@id'], { page: null }, { token: admin })
    expect(response.status).toBe(422)
    expect((await server.get(route['@id'])).body.page).toBe(page)
  })

  it('refuses a PATCH that adds pageData beside the page (422), and accepts a swap in one request', async () => {
    const route = await create('/_api/_/routes', { path: '/swap', page })
    const both = await server.patch(route['@id'], { pageData: article }, { token: admin })
    expect(both.status).toBe(422)
    expect((await server.get(route['@id'])).body).toMatchObject({ page, pageData: null })
    const swapped = await server.patch(route['@id'], { page: null, pageData: article }, { token: admin })
    expect(swapped.status).toBe(200)
    expect(swapped.body).toMatchObject({ page: null, pageData: article })
  })

  it('refuses a route that redirects to itself (422 on redirect), route unchanged', async () => {
    const route = await create('/_api/_/routes', { path: '/loop', page })
    const response = await server.patch(route['@id'], { page: null, redirect: route['@id'] }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['redirect'])
    expect((await server.get(route['@id'])).body).toMatchObject({ page, redirect: null })
  })

  it('refuses a target IRI of the wrong type (422 on that property)', async () => {
    const response = await server.post('/_api/_/routes', { path: '/wrong-type', page: article }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['page'])
  })
})

describe('Route path', () => {
  it.each([
    ['without a leading slash', 'no-slash'],
    ['empty', ''],
    ['a full URL', 'https://example.com/x'],
  ])('refuses a path %s (422 on path)', async (_label, path) => {
    const response = await server.post('/_api/_/routes', { path, page }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['path'])
    expect(await routePaths()).not.toContain(path)
  })

  it('refuses a missing or null path (422 on path)', async () => {
    for (const body of [{ page }, { path: null, page }]) {
      const response = await server.post('/_api/_/routes', body, { token: admin })
      expect(response.status).toBe(422)
      expect(violationPaths(response.body)).toEqual(['path'])
    }
  })

  it('refuses a path of the wrong type (422, not 500)', async () => {
    const response = await server.post('/_api/_/routes', { path: 12, page }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['path'])
  })

  it('refuses a duplicate path with 422 (never 500), keeping one route', async () => {
    await create('/_api/_/routes', { path: '/unique', page })
    const response = await server.post('/_api/_/routes', { path: '/unique', pageData: article }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['path'])
    expect((await routePaths()).filter((p) => p === '/unique')).toHaveLength(1)
  })

  it('refuses a PATCH to a taken path (422) and to a path without a slash (422), path unchanged', async () => {
    await create('/_api/_/routes', { path: '/taken', page })
    const route = await create('/_api/_/routes', { path: '/mine', pageData: article })
    const taken = await server.patch(route['@id'], { path: '/taken' }, { token: admin })
    expect(taken.status).toBe(422)
    expect(violationPaths(taken.body)).toEqual(['path'])
    const noSlash = await server.patch(route['@id'], { path: 'mine' }, { token: admin })
    expect(noSlash.status).toBe(422)
    expect((await server.get(route['@id'])).body.path).toBe('/mine')
  })

  it('accepts the root path /', async () => {
    const response = await server.post('/_api/_/routes', { path: '/', page }, { token: admin })
    expect(response.status).toBe(201)
  })
})

describe('one route per page or page data record', () => {
  it('refuses a second route to the same page or page data (422), allows a redirect to it', async () => {
    const server = await startTestServer()
    try {
      const admin = await server.tokenFor('ROLE_ADMIN')
      const layout = await server.post('/_api/_/layouts', { reference: 'one-route' }, { token: admin })
      const page = await server.post(
        '/_api/_/pages',
        { reference: 'one-route-page', layout: layout.body['@id'] },
        { token: admin },
      )
      const first = await server.post('/_api/_/routes', { path: '/one', page: page.body['@id'] }, { token: admin })
      expect(first.status).toBe(201)
      const second = await server.post('/_api/_/routes', { path: '/two', page: page.body['@id'] }, { token: admin })
      expect(second.status).toBe(422)
      expect(second.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['page'])
      const redirect = await server.post(
        '/_api/_/routes',
        { path: '/old-one', redirect: first.body['@id'] },
        { token: admin },
      )
      expect(redirect.status).toBe(201)
      // Editing the route itself is not a conflict with itself.
      expect((await server.patch(first.body['@id'], { path: '/one-renamed' }, { token: admin })).status).toBe(200)

      const article = await server.post(
        '/_api/page_data/blog_article_datas',
        { title: 'Routed', page: page.body['@id'] },
        { token: admin },
      )
      expect(
        (await server.post('/_api/_/routes', { path: '/a', pageData: article.body['@id'] }, { token: admin })).status,
      ).toBe(201)
      const again = await server.post('/_api/_/routes', { path: '/b', pageData: article.body['@id'] }, { token: admin })
      expect(again.status).toBe(422)
      expect(again.body.violations[0].propertyPath).toBe('pageData')
    } finally {
      await server.close()
    }
  })
})
