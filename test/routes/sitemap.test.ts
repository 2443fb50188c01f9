import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { inSeconds, routeFixtures } from '../support/routeFixtures'

/**
 * GET /sitemap.xml at the site root (beyond the contract): the live,
 * non-redirect routes with <lastmod>, from the same liveness query as the
 * API; nothing scheduled, offline, gated by an ancestor, redirecting or
 * denied to anonymous callers by route_security.
 */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ options: { routeSecurity: [{ route: '/members*', security: 'ROLE_USER' }] } })
  const fx = routeFixtures(server.payload)
  const layout = (await fx.layout()).id
  const home = await fx.route('/', { page: (await fx.page(layout)).id }, '2021-05-01T10:00:00.000Z')
  await fx.route('/blog & news', { page: (await fx.page(layout)).id })
  await fx.route('/later', { page: (await fx.page(layout)).id }, inSeconds(3600))
  const offline = await fx.page(layout)
  await fx.route('/offline', { page: offline.id }, null)
  await fx.route('/offline/child', { page: (await fx.page(layout, { parentPage: offline.id })).id })
  await fx.route('/old-home', { redirect: home.id })
  await fx.route('/members/area', { page: (await fx.page(layout)).id })
  // Publishable page data: a route to a record never published is a 404 for the public, so not in the sitemap.
  const template = (await fx.page(layout, { isTemplate: true })).id
  const news = (data: Record<string, unknown>) =>
    server.payload.create({
      collection: 'news_article_datas' as never,
      data: { title: fx.unique('News'), summary: 'Summary', page: template, ...data } as never,
      depth: 0,
    })
  await fx.route('/news/draft', {
    pageData: { relationTo: 'news_article_datas', value: (await news({ publishedAt: null })).id },
  })
  await fx.route('/news/live', {
    pageData: { relationTo: 'news_article_datas', value: (await news({ publishedAt: '2022-01-01T00:00:00.000Z' })).id },
  })
})
afterAll(async () => {
  await server?.close()
})

describe('GET /sitemap.xml', () => {
  it('lists live page routes as absolute URLs (percent-encoded, XML-escaped) with lastmod', async () => {
    const response = await fetch(`${server.url}/sitemap.xml`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/application\/xml/)
    const xml = await response.text()
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    )
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
    expect(locs).toEqual([`${server.url}/`, `${server.url}/blog%20&amp;%20news`, `${server.url}/news/live`])
    const lastmods = [...xml.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].map((m) => m[1]!)
    expect(lastmods).toHaveLength(3)
    for (const lastmod of lastmods) expect(new Date(lastmod).toISOString()).toBe(lastmod)
  })

  it('leaves out scheduled, offline, inherited-offline, redirecting, rule-protected and unpublished routes', async () => {
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text()
    for (const path of ['/later', '/offline', '/offline/child', '/old-home', '/members/area', '/news/draft'])
      expect(xml).not.toContain(`${server.url}${path}<`)
  })
})
