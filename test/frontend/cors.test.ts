import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { openBrowser } from '../support/browser'
import { startTestServer, type TestServer } from '../support/server'

/**
 * CORS for front ends on their own origin (`cors.allowedOrigins`): real
 * HTTP against the reference site started with the option, and without it.
 */

const FRONT = 'https://front.example:3001'
const P = '/_api'

let server: TestServer
let plain: TestServer

beforeAll(async () => {
  server = await startTestServer({
    // The browser test's front end: http://localhost:<port>, another origin than the API's http://127.0.0.1:<port>.
    options: { cors: { allowedOrigins: ['https://front\\.example(:\\d+)?', 'http://localhost:\\d+'], maxAge: 600 } },
  })
  plain = await startTestServer()
})
afterAll(async () => {
  await server?.close()
  await plain?.close()
})

const preflight = (
  target: TestServer,
  origin: string,
  method = 'PATCH',
  requestHeaders = 'content-type, path, preload',
) =>
  target.request('OPTIONS', `${P}/_/routes`, undefined, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders },
  })

describe('an allowed origin', () => {
  it('gets a 204 preflight naming the origin, credentials, methods, headers and max-age', async () => {
    const response = await preflight(server, FRONT)
    expect(response.status).toBe(204)
    expect(response.text).toBe('')
    const h = response.headers
    expect(h.get('access-control-allow-origin')).toBe(FRONT)
    expect(h.get('access-control-allow-credentials')).toBe('true')
    expect(h.get('access-control-allow-methods')!.split(/,\s*/).sort()).toEqual(['DELETE', 'GET', 'PATCH', 'POST'])
    expect(h.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['content-type', 'path', 'preload']),
    )
    expect(h.get('access-control-max-age')).toBe('600')
    expect(h.get('vary')).toMatch(/Origin/)
  })

  it('matches case-insensitively, anchored (https://FRONT.example yes; https://front.example.evil no)', async () => {
    expect((await preflight(server, 'https://FRONT.example')).headers.get('access-control-allow-origin')).toBe(
      'https://FRONT.example',
    )
    expect(
      (await preflight(server, 'https://front.example.evil')).headers.get('access-control-allow-origin'),
    ).toBeNull()
    expect(
      (await preflight(server, 'https://evil.front.example')).headers.get('access-control-allow-origin'),
    ).toBeNull()
  })

  it('may read answers (Link exposed) and errors, with their message', async () => {
    const read = await server.get(`${P}/_/routes`, { headers: { origin: FRONT } })
    expect(read.headers.get('access-control-allow-origin')).toBe(FRONT)
    expect(read.headers.get('access-control-expose-headers')).toMatch(/Link/)
    expect(read.headers.get('link')).toMatch(/docs\.jsonld/)
    const refused = await server.request(
      'POST',
      `${P}/login`,
      { username: 'nobody', password: 'nope' },
      { headers: { origin: FRONT }, contentType: 'application/json' },
    )
    expect(refused.status).toBe(401)
    expect(refused.headers.get('access-control-allow-origin')).toBe(FRONT)
    expect(refused.body.message).toBe('Invalid credentials.')
  })

  it('may send writes with the session cookie (the cross-site write refusal lets it through)', async () => {
    const token = await server.tokenFor('ROLE_ADMIN')
    const write = await server.request(
      'POST',
      `${P}/_/layouts`,
      { reference: 'from-front' },
      { headers: { origin: FRONT, cookie: `api_component=${token}` } },
    )
    expect(write.status).toBe(201)
    expect(write.headers.get('access-control-allow-origin')).toBe(FRONT)
    // Payload's REST API applies the same cross-site rule: the listed origin may write there too.
    const rest = await fetch(`${server.url}/api/layouts`, {
      method: 'POST',
      headers: { origin: FRONT, cookie: `api_component=${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'from-front-rest' }),
    })
    expect(rest.status).toBe(201)
    const evil = await fetch(`${server.url}/api/layouts`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', cookie: `api_component=${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ reference: 'from-evil-rest' }),
    })
    expect(evil.status).toBe(403)
  })
})

describe('attack: a lost update from a cross-origin front end (If-Match blocked by the preflight, ETag unreadable)', () => {
  it('the preflight allows If-Match and answers expose ETag', async () => {
    const h = (await preflight(server, FRONT, 'PATCH', 'content-type, if-match, authorization')).headers
    expect(h.get('access-control-allow-headers')!.toLowerCase().split(/,\s*/)).toEqual(
      expect.arrayContaining(['if-match', 'authorization', 'content-type']),
    )
    const read = await server.get(`${P}/_/routes`, { headers: { origin: FRONT } })
    expect(read.headers.get('access-control-expose-headers')!.toLowerCase().split(/,\s*/)).toContain('etag')
  })

  it('in chromium, a page of the allowed origin reads the ETag and its PATCH with If-Match gets 200, then 412 once stale', async () => {
    const token = await server.tokenFor('ROLE_ADMIN')
    const iri = (await server.post(`${P}/_/layouts`, { reference: 'cors-if-match' }, { token })).body['@id']
    const api = server.url // http://127.0.0.1:<port>
    const front = api.replace('127.0.0.1', 'localhost')
    const browser = await openBrowser()
    try {
      const page = await browser.newPage()
      await page.goto(`${front}${P}/`)
      const seen = await page.evaluate(
        async ({ api, iri, token }) => {
          const auth = { authorization: `Bearer ${token}`, accept: 'application/ld+json' }
          const read = await fetch(`${api}${iri}`, { headers: auth })
          const etag = read.headers.get('ETag')
          const patch = (reference: string) =>
            fetch(`${api}${iri}`, {
              method: 'PATCH',
              headers: { ...auth, 'content-type': 'application/merge-patch+json', 'if-match': etag ?? '' },
              body: JSON.stringify({ reference }),
            }).then(async (r) => ({ status: r.status, body: await r.json() }))
          const current = await patch('cors-if-match-2')
          const stale = await patch('cors-if-match-3')
          return {
            origin: location.origin,
            etag,
            current: current.status,
            stale: stale.status,
            conflict: stale.body.conflict,
          }
        },
        { api, iri, token },
      )
      expect(seen.origin).toBe(front)
      expect(seen.etag).toMatch(/^W\/"/)
      expect(seen.current).toBe(200)
      expect(seen.stale).toBe(412)
      expect(seen.conflict.changed).toBe('record')
      expect(browser.pageErrors).toEqual([])
    } finally {
      await browser.close()
    }
    expect((await server.get(iri, { token })).body.reference).toBe('cors-if-match-2')
  }, 60_000)
})

describe("a foreign origin (attack: a page of another site reading or writing with the visitor's cookie)", () => {
  it('gets no CORS header on a preflight or a read', async () => {
    const response = await preflight(server, 'https://evil.example')
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(response.headers.get('access-control-allow-credentials')).toBeNull()
    const read = await server.get(`${P}/_/routes`, { headers: { origin: 'https://evil.example' } })
    expect(read.headers.get('access-control-allow-origin')).toBeNull()
    expect((await preflight(server, 'null')).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('is refused a write with the cookie (403)', async () => {
    const token = await server.tokenFor('ROLE_ADMIN')
    const write = await server.request(
      'POST',
      `${P}/_/layouts`,
      { reference: 'from-evil' },
      { headers: { origin: 'https://evil.example', cookie: `api_component=${token}` } },
    )
    expect(write.status).toBe(403)
  })
})

describe('without cors.allowedOrigins (the default)', () => {
  it('sends no CORS header to anyone', async () => {
    const response = await preflight(plain, FRONT)
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    expect(
      (await plain.get(`${P}/_/routes`, { headers: { origin: FRONT } })).headers.get('access-control-allow-origin'),
    ).toBeNull()
  })
})

describe('the option itself', () => {
  it('refuses an invalid regex or a bad max-age at start', () => {
    expect(() => resolveOptions({ cors: { allowedOrigins: ['https://(unclosed'] } })).toThrow(/cors\.allowedOrigins/)
    expect(() => resolveOptions({ cors: { maxAge: -1 } })).toThrow(/cors\.maxAge/)
    expect(resolveOptions({}).cors).toEqual({ allowedOrigins: [], maxAge: 3600 })
  })
})
