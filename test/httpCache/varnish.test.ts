/**
 * Issue 14, HTTP cache invalidation with a real Varnish (Debian varnishd and
 * its xkey vmod) in front of the service and of a stand-in front end,
 * running the README's VCL: cached anonymous reads are served from the
 * cache, a write purges exactly the resources it affects (and the pages
 * holding a changed component) so the next read is fresh, the purge
 * endpoints work, and they answer 502 when Varnish is down.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { captureLogs } from '../support/logs'
import { startTestServer, type TestServer } from '../support/server'
import { freePort, startVarnish, type TestVarnish } from '../support/varnish'

const PAST = '2020-01-01T00:00:00.000Z'
let server: TestServer
let varnish: TestVarnish
let frontend: Server
let rendered = 0
let admin: string
const previousServerUrl = process.env.SERVER_URL

interface CacheRead {
  status: number
  age: number
  hit: boolean
  body: any
  text: string
  headers: Headers
}

/** An anonymous GET through Varnish. `hit`: served from the cache (X-Varnish names two transactions). */
async function viaCache(path: string): Promise<CacheRead> {
  const response = await fetch(`${varnish.url}${path}`, { headers: { accept: 'application/ld+json' } })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    /* HTML */
  }
  return {
    status: response.status,
    age: Number(response.headers.get('age') ?? 0),
    hit: (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2,
    body,
    text,
    headers: response.headers,
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const idOf = (iri: string) => iri.split('/').pop()!

beforeAll(async () => {
  // The stand-in front end: rendered HTML tagged with the rendered-HTML tag, numbered so a fresh render shows.
  frontend = createServer((req, res) => {
    rendered += 1
    res
      .writeHead(200, { 'content-type': 'text/html', 'cache-control': 'public, s-maxage=600', xkey: 'cwa-html' })
      .end(`<html><body>render ${rendered} of ${req.url}</body></html>`)
  })
  await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve))
  const varnishPort = await freePort()
  // A shared cache needs SERVER_URL (the public origin): the site reads it when its config is built.
  process.env.SERVER_URL = `http://127.0.0.1:${varnishPort}`
  server = await startTestServer({
    options: { httpCache: { sharedMaxAge: 600, purger: 'varnish', varnishUrl: `http://127.0.0.1:${varnishPort}` } },
  })
  varnish = await startVarnish({
    port: varnishPort,
    servicePort: Number(new URL(server.url).port),
    frontendPort: (frontend.address() as AddressInfo).port,
  })
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  if (previousServerUrl === undefined) delete process.env.SERVER_URL
  else process.env.SERVER_URL = previousServerUrl
  await varnish?.stop()
  await server?.close()
  await new Promise((resolve) => frontend?.close(resolve))
})

async function published(html: string): Promise<string> {
  const response = await server.post('/_api/component/html_contents', { html, publishedAt: PAST }, { token: admin })
  expect(response.status).toBe(201)
  return response.body['@id']
}

/** Reads through Varnish until the answer comes from the cache with Age > 0 (a second after the first read). */
async function cached(path: string): Promise<CacheRead> {
  await viaCache(path)
  await pause(1100)
  const read = await viaCache(path)
  expect({ path, hit: read.hit, aged: read.age > 0 }).toEqual({ path, hit: true, aged: true })
  return read
}

describe('cached anonymous reads', () => {
  it('are served from the cache (Age > 0), the same body; the xkey tags stay between the service and Varnish', async () => {
    const iri = await published('<p>cached</p>')
    const first = await viaCache(iri)
    expect(first.status).toBe(200)
    expect(first.hit).toBe(false)
    const again = await cached(iri)
    expect(again.text).toBe(first.text)
    expect(again.headers.get('xkey')).toBeNull()
    const direct = await server.get(iri)
    expect(direct.headers.get('xkey')!.split(' ')).toContain(iri)
    expect(direct.headers.get('cache-control')).toBe('public, s-maxage=600')
  })

  it('signed-in reads are never stored', async () => {
    const iri = await published('<p>private</p>')
    const read = async () =>
      fetch(`${varnish.url}${iri}`, { headers: { accept: 'application/ld+json', authorization: `Bearer ${admin}` } })
    await read()
    await pause(1100)
    const second = await read()
    expect(second.headers.get('cache-control')).toBe('private, no-store')
    expect(Number(second.headers.get('age') ?? 0)).toBe(0)
  })
})

describe('a write purges exactly what it affects, and the next read is fresh', () => {
  it('publishing a draft purges the published IRI; an unrelated cached resource stays cached', async () => {
    const live = await published('<p>old</p>')
    const other = await published('<p>unrelated</p>')
    const draft = await server.patch(live, { html: '<p>new</p>' }, { token: admin })
    expect(draft.body['@id']).not.toBe(live)
    await cached(live)
    await cached(other)
    expect((await server.patch(draft.body['@id'], { publishedAt: PAST }, { token: admin })).status).toBe(200)
    const fresh = await viaCache(live)
    expect(fresh.hit).toBe(false)
    expect(fresh.body.html).toBe('<p>new</p>')
    const untouched = await viaCache(other)
    expect(untouched.hit).toBe(true)
    expect(untouched.age).toBeGreaterThan(0)
  })

  it('a changed component purges the page that contains it (through its position and group), not another page', async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'vc-layout' } as never })
    const group = await server.payload.create({
      collection: 'component_groups',
      data: { reference: 'vc-group', location: 'main' } as never,
    })
    const otherGroup = await server.payload.create({
      collection: 'component_groups',
      data: { reference: 'vc-other', location: 'main' } as never,
    })
    const page = await server.payload.create({
      collection: 'pages',
      data: { reference: 'vc-page', title: 'P', layout: layout.id, componentGroups: [group.id] } as never,
    })
    const otherPage = await server.payload.create({
      collection: 'pages',
      data: { reference: 'vc-other-page', title: 'O', layout: layout.id, componentGroups: [otherGroup.id] } as never,
    })
    await server.payload.create({ collection: 'routes', data: { path: '/vc-page', page: page.id } as never })
    await server.payload.create({ collection: 'routes', data: { path: '/vc-other-page', page: otherPage.id } as never })
    const title = await server.post('/_api/component/titles', { title: 'before' }, { token: admin })
    await server.payload.create({
      collection: 'component_positions',
      data: { componentGroup: group.id, component: { relationTo: 'titles', value: idOf(title.body['@id']) } } as never,
    })
    const pagePath = `/_api/_/pages/${page.id}`
    const otherPath = `/_api/_/pages/${otherPage.id}`
    expect((await viaCache(pagePath)).status).toBe(200)
    await cached(pagePath)
    await cached(otherPath)
    await cached(title.body['@id'])
    expect((await server.patch(title.body['@id'], { title: 'after' }, { token: admin })).status).toBe(200)
    expect((await viaCache(pagePath)).hit).toBe(false)
    const component = await viaCache(title.body['@id'])
    expect(component.hit).toBe(false)
    expect(component.body.title).toBe('after')
    expect((await viaCache(otherPath)).hit).toBe(true)
  })

  it('a write through Payload REST (/api) purges too', async () => {
    const iri = await published('<p>rest before</p>')
    await cached(iri)
    // The admin panel's own origin (SERVER_URL): Payload takes a cookie on a write only from it.
    const headers = { accept: 'application/json', cookie: `api_component=${admin}`, origin: process.env.SERVER_URL! }
    // An editor's edit of a live record makes its draft (the state machine); publishing the draft over REST changes the live record.
    const response = await server.request(
      'PATCH',
      `/api/html_contents/${idOf(iri)}`,
      { uiClassNames: ['rest'] },
      { contentType: 'application/json', headers },
    )
    expect({ status: response.status, body: response.status === 200 ? null : response.text }).toEqual({
      status: 200,
      body: null,
    })
    expect((await viaCache(iri)).body.uiClassNames ?? []).toEqual([])
    const publish = await server.request(
      'PATCH',
      `/api/html_contents/${response.body.doc.id}`,
      { publishedAt: new Date().toISOString() },
      { contentType: 'application/json', headers },
    )
    expect(publish.status).toBe(200)
    const fresh = await viaCache(iri)
    expect(fresh.hit).toBe(false)
    expect(fresh.body.uiClassNames).toEqual(['rest'])
  })
})

describe('the purge endpoints', () => {
  it('anonymous: 401; a signed-in user: 403; nothing purged', async () => {
    const user = await server.tokenFor('ROLE_USER')
    for (const path of ['/_api/_/rendered_html/purge', '/_api/_/http_cache/purge']) {
      expect((await server.post(path)).status).toBe(401)
      expect((await server.post(path, undefined, { token: user })).status).toBe(403)
    }
  })

  it('POST /_/rendered_html/purge purges the rendered HTML (tag cwa-html) and leaves API responses cached', async () => {
    const iri = await published('<p>api stays</p>')
    await cached(iri)
    const page = await cached('/some/rendered-page')
    const purge = await server.post('/_api/_/rendered_html/purge', undefined, { token: admin })
    expect(purge.status).toBe(204)
    const after = await viaCache('/some/rendered-page')
    expect(after.hit).toBe(false)
    expect(after.text).not.toBe(page.text)
    expect((await viaCache(iri)).hit).toBe(true)
  })

  it('POST /_/http_cache/purge flushes everything: API responses and rendered HTML', async () => {
    const iri = await published('<p>flushed</p>')
    await cached(iri)
    await cached('/another/rendered-page')
    const purge = await server.post('/_api/_/http_cache/purge', undefined, { token: admin })
    expect(purge.status).toBe(204)
    expect((await viaCache(iri)).hit).toBe(false)
    expect((await viaCache('/another/rendered-page')).hit).toBe(false)
  })

  it('attack: a cross-site POST to a purge endpoint with the admin cookie is refused (403), nothing purged', async () => {
    await cached('/csrf/rendered-page')
    const response = await server.request('POST', '/_api/_/rendered_html/purge', undefined, {
      headers: { cookie: `api_component=${admin}`, origin: 'https://evil.example' },
    })
    expect(response.status).toBe(403)
    expect((await viaCache('/csrf/rendered-page')).hit).toBe(true)
  })
})

describe('absolute URLs come from SERVER_URL, never from the Host header', () => {
  it('attack: a forged Host does not reach the Hydra Link of a cacheable response', async () => {
    const port = Number(new URL(server.url).port)
    const link = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/_api/', headers: { host: 'evil.example', accept: 'application/ld+json' } },
        (res) => {
          res.resume()
          resolve(String(res.headers.link))
        },
      )
      req.on('error', reject)
      req.end()
    })
    expect(link.startsWith(`<${process.env.SERVER_URL}/_api/docs.jsonld>`)).toBe(true)
    expect(link).not.toContain('evil.example')
  })
})

/**
 * Issue 36: a dynamic position (`pageDataProperty`) and the positions collection answer after the `path` request
 * header (the CWA Nuxt module sends it on every request), which is not in the URL. The attack guarded against: the
 * answer read for one page served from the cache for another (an article's block shown on every article), because
 * the cache keyed answers by URL and Host only.
 */
describe('answers that resolve the `path` request header are cached per path', () => {
  it('a dynamic position and the positions collection read for one page are never served for another', async () => {
    const layout = await server.post('/_api/_/layouts', { reference: 'vp-layout' }, { token: admin })
    const group = await server.post(
      '/_api/_/component_groups',
      { reference: 'vp-group', location: 'main' },
      { token: admin },
    )
    const page = await server.post(
      '/_api/_/pages',
      { reference: 'vp-page', title: 'P', layout: layout.body['@id'], componentGroups: [group.body['@id']] },
      { token: admin },
    )
    const articleOf = async (path: string, html: string) => {
      const component = await published(html)
      const article = await server.post(
        '/_api/page_data/blog_article_datas',
        { title: path, page: page.body['@id'], htmlContent: component, publishedAt: PAST },
        { token: admin },
      )
      expect(article.status).toBe(201)
      expect(
        (await server.post('/_api/_/routes', { path, pageData: article.body['@id'] }, { token: admin })).status,
      ).toBe(201)
      return component
    }
    const first = await articleOf('/vp-first', '<p>first article</p>')
    const second = await articleOf('/vp-second', '<p>second article</p>')
    const dynamic = await server.post(
      '/_api/_/component_positions',
      { componentGroup: group.body['@id'], pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' },
      { token: admin },
    )
    expect(dynamic.status).toBe(201)
    const read = async (url: string, path: string | null) => {
      const response = await fetch(`${varnish.url}${url}`, {
        headers: { accept: 'application/ld+json', ...(path === null ? {} : { path }) },
      })
      return {
        hit: (response.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2,
        text: await response.text(),
      }
    }
    const collection = `/_api/_/component_positions?componentGroup=${encodeURIComponent(group.body['@id'])}`
    for (const url of [dynamic.body['@id'], collection]) {
      const forFirst = await read(url, '/vp-first')
      expect(forFirst.text).toContain(first)
      // Cached for the first path: its second read is a hit.
      expect((await read(url, '/vp-first')).hit).toBe(true)
      const forSecond = await read(url, '/vp-second')
      expect({
        url,
        hit: forSecond.hit,
        first: forSecond.text.includes(first),
        second: forSecond.text.includes(second),
      }).toEqual({ url, hit: false, first: false, second: true })
      // Without the header: neither article's block, and not the answer cached for a path.
      const bare = await read(url, null)
      expect({ url, first: bare.text.includes(first), second: bare.text.includes(second) }).toEqual({
        url,
        first: false,
        second: false,
      })
      expect((await read(url, '/vp-second')).hit).toBe(true)
    }
  })
})

describe('Varnish down', () => {
  it('the purge endpoints answer 502; writes still succeed (the failed purge is logged)', async () => {
    await varnish.stop()
    const errors = captureLogs(server.payload, 'error')
    try {
      for (const path of ['/_api/_/rendered_html/purge', '/_api/_/http_cache/purge']) {
        const response = await server.post(path, undefined, { token: admin })
        expect(response.status).toBe(502)
        expect(response.body['@type']).toBe('Error')
        expect(response.body.detail).toMatch(/Varnish at http:\/\/127\.0\.0\.1:\d+ could not be reached/)
      }
      const created = await server.post('/_api/component/titles', { title: 'saved anyway' }, { token: admin })
      expect(created.status).toBe(201)
      expect(
        errors.logged('HTTP cache purge after a write failed; cached responses may be stale until they expire'),
      ).toBe(true)
    } finally {
      errors.restore()
    }
  })
})
