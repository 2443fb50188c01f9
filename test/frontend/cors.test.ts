import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
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
    options: { cors: { allowedOrigins: ['https://front\\.example(:\\d+)?'], maxAge: 600 } },
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
