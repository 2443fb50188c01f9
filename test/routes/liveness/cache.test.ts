import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { capCacheControl } from '../../../plugins/cwa/dist/features/httpCache/lifetime.js'
import { startTestServer, type TestServer } from '../../support/server'
import { inSeconds, routeFixtures } from '../../support/routeFixtures'

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
    for (const path of [
      '/_api/_/routes//cached',
      `/_api/_/pages/${page}`,
      `/_api/page_data/blog_article_datas/${article}`,
      '/_api/_/routes',
      '/_api/_/resource_manifest//cached',
    ]) {
      const header = (await server.get(path)).headers.get('cache-control')
      for (const name of ['max-age', 's-maxage']) {
        const seconds = directive(header, name)!
        expect(seconds).toBeLessThanOrEqual(120)
        expect(seconds).toBeGreaterThanOrEqual(110)
      }
    }
  })

  it('components and collections are covered too (issue 14), under the same cap', async () => {
    const title = await server.payload.create({ collection: 'titles' as never, data: { title: 't' } as never })
    for (const path of [
      `/_api/component/titles/${(title as { id: string }).id}`,
      '/_api/component/titles',
      '/_api/_/component_groups',
    ]) {
      const header = (await server.get(path)).headers.get('cache-control')
      expect(header).toMatch(/^public, /)
      expect(directive(header, 'max-age')).toBeLessThanOrEqual(600)
      expect(directive(header, 's-maxage')).toBeLessThanOrEqual(3600)
    }
  })

  it('a draft scheduled 60 s ahead (publishedAt) caps the lifetime too: the draft takes over then', async () => {
    const admin = await server.tokenFor('ROLE_ADMIN')
    const live = await server.post(
      '/_api/component/html_contents',
      { html: '<p>now</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      { token: admin },
    )
    const draft = await server.patch(live.body['@id'], { html: '<p>soon</p>' }, { token: admin })
    expect((await server.patch(draft.body['@id'], { publishedAt: inSeconds(60) }, { token: admin })).status).toBe(200)
    const header = (await server.get(live.body['@id'])).headers.get('cache-control')
    for (const name of ['max-age', 's-maxage']) {
      expect(directive(header, name)).toBeLessThanOrEqual(60)
      expect(directive(header, name)).toBeGreaterThanOrEqual(55)
    }
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
