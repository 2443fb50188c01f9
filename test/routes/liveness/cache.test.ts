import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { capCacheControl } from '../../../plugins/cwa/features/routes/cache'
import { startTestServer, type TestServer } from '../../support/server'
import { inSeconds, routeFixtures } from '../support'

/**
 * Cache lifetime cap (contract, "Limits"): anonymous route, page, page data
 * and manifest responses that carry s-maxage or max-age are capped at the
 * soonest upcoming liveAt of all routes. The httpCache option sets them.
 */

let server: TestServer
let fx: ReturnType<typeof routeFixtures>
let layout: string
let page: string
let article: string

const directive = (header: string | null, name: string): number | null => {
  const match = new RegExp(`(?:^|[ ,])${name}=(\\d+)`).exec(header ?? '')
  return match ? Number(match[1]) : null
}

beforeAll(async () => {
  server = await startTestServer({ options: { httpCache: { maxAge: 600, sharedMaxAge: 3600 } } })
  fx = routeFixtures(server.payload)
  layout = (await fx.layout()).id
  page = (await fx.page(layout)).id
  await fx.route('/cached', { page })
  article = (await fx.article((await fx.page(layout, { isTemplate: true })).id)).id
})
afterAll(async () => {
  await server?.close()
})

describe('Cache-Control of anonymous reads', () => {
  it('with nothing scheduled, anonymous reads carry the configured max-age and s-maxage', async () => {
    const response = await server.get('/_api/_/routes//cached')
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=600, s-maxage=3600')
  })

  it('signed-in callers never get a shared cache lifetime', async () => {
    const token = await server.tokenFor('ROLE_USER')
    const header = (await server.get('/_api/_/routes//cached', { token })).headers.get('cache-control')
    expect(header).toBe('private, no-store')
  })

  it('error responses are not given a lifetime', async () => {
    const response = await server.get('/_api/_/routes//nowhere')
    expect(response.status).toBe(404)
    expect(directive(response.headers.get('cache-control'), 'max-age')).toBeNull()
  })

  it('a route scheduled 120 s ahead caps max-age and s-maxage of routes, pages, page data and the manifest at the seconds left', async () => {
    await fx.route('/scheduled-cap', { page: (await fx.page(layout)).id }, inSeconds(120))
    for (const path of ['/_api/_/routes//cached', `/_api/_/pages/${page}`, `/_api/page_data/blog_article_datas/${article}`, '/_api/_/routes', '/_api/_/resource_manifest//cached']) {
      const header = (await server.get(path)).headers.get('cache-control')
      for (const name of ['max-age', 's-maxage']) {
        const seconds = directive(header, name)!
        expect(seconds).toBeLessThanOrEqual(120)
        expect(seconds).toBeGreaterThanOrEqual(110)
      }
    }
  })

  it('components are not covered by the option', async () => {
    const title = await server.payload.create({ collection: 'titles' as never, data: { title: 't' } as never })
    const header = (await server.get(`/_api/component/titles/${(title as { id: string }).id}`)).headers.get('cache-control')
    expect(directive(header, 'max-age')).toBeNull()
  })
})

describe('capCacheControl', () => {
  it('caps both directives, keeps smaller values and other directives, never goes negative', () => {
    expect(capCacheControl('public, max-age=600, s-maxage=3600', 90)).toBe('public, max-age=90, s-maxage=90')
    expect(capCacheControl('public, max-age=30, s-maxage=3600', 90)).toBe('public, max-age=30, s-maxage=90')
    expect(capCacheControl('public, max-age=600', -5)).toBe('public, max-age=0')
    expect(capCacheControl('no-cache', 10)).toBe('no-cache')
  })
})
