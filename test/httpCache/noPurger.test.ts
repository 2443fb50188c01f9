/**
 * Issue 14, the HTTP cache without a shared cache (the default purger
 * `none`): the purge endpoints succeed and do nothing, reads still carry
 * their cache tags, and the options refuse what cannot work (a varnish
 * purger without VARNISH_URL, a shared cache without SERVER_URL).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Config } from 'payload'
import { cwaPlugin, resolveOptions } from 'payload-cwa'
import { siteOptions } from '../../src/config/siteOptions'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

describe('purger none (default)', () => {
  it('both purge endpoints answer 204 and do nothing', async () => {
    expect(resolveOptions({}).httpCache.purger).toBe('none')
    expect((await server.post('/_api/_/rendered_html/purge', undefined, { token: admin })).status).toBe(204)
    expect((await server.post('/_api/_/http_cache/purge', undefined, { token: admin })).status).toBe(204)
  })

  it('a body sent to a purge endpoint cannot widen the purge: it is ignored', async () => {
    const response = await server.post('/_api/_/rendered_html/purge', { tags: ['*'] }, { token: admin })
    expect(response.status).toBe(204)
  })
})

describe('cache tags (xkey)', () => {
  it("a read lists the IRIs its body contains: the item, its references; a collection its own IRI and its members'", async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'tags-layout' } as never })
    const group = await server.payload.create({
      collection: 'component_groups',
      data: { reference: 'tags-group', location: 'main' } as never,
    })
    const page = await server.payload.create({
      collection: 'pages',
      data: { reference: 'tags-page', title: 'P', layout: layout.id, componentGroups: [group.id] } as never,
    })
    await server.payload.create({ collection: 'routes', data: { path: '/tags-page', page: page.id } as never })
    const read = await server.get(`/_api/_/pages/${page.id}`)
    expect(read.status).toBe(200)
    const tags = read.headers.get('xkey')!.split(' ')
    expect(tags).toEqual(
      expect.arrayContaining([
        `/_api/_/pages/${page.id}`,
        `/_api/_/layouts/${layout.id}`,
        `/_api/_/component_groups/${group.id}`,
      ]),
    )
    const titles = await server.get('/_api/component/titles')
    expect(titles.headers.get('xkey')!.split(' ')[0]).toBe('/_api/component/titles')
    for (const member of titles.body.member) expect(titles.headers.get('xkey')!.split(' ')).toContain(member['@id'])
    // No page-of-collection URL, nothing outside the API.
    expect(titles.headers.get('xkey')).not.toMatch(/\?/)
  })
})

describe('options', () => {
  it('CACHE_PURGER and VARNISH_URL in the reference deployment; varnish needs VARNISH_URL; an unknown purger is refused', () => {
    expect(
      resolveOptions(siteOptions({ CACHE_PURGER: 'varnish', VARNISH_URL: 'http://127.0.0.1:6081' })).httpCache,
    ).toMatchObject({ purger: 'varnish', varnishUrl: 'http://127.0.0.1:6081' })
    expect(() => resolveOptions(siteOptions({ CACHE_PURGER: 'varnish' }))).toThrow(
      'httpCache.varnishUrl (VARNISH_URL) is required',
    )
    expect(() => resolveOptions(siteOptions({ CACHE_PURGER: 'souin' }))).toThrow(
      'httpCache.purger must be none or varnish',
    )
  })

  it('a shared cache without SERVER_URL stops the start, naming the variable', () => {
    const plugin = cwaPlugin({ httpCache: { purger: 'varnish', varnishUrl: 'http://127.0.0.1:6081' } })
    expect(() => plugin({ serverURL: '' } as Config)).toThrow(
      /SERVER_URL must be set when a shared HTTP cache is configured \(CACHE_PURGER=varnish\)/,
    )
    expect(() => plugin({ serverURL: 'https://example.com', collections: [] } as unknown as Config)).not.toThrow()
  })
})
