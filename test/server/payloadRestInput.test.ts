import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'

/**
 * Issue 11, "Found when probed from outside": Payload's REST API (/api)
 * answers bad input with a 400 in Payload's error shape
 * (`{ errors: [{ message }] }`), never a 500: NUL characters, negative
 * pages, malformed ids, geometric operators on fields that are no points,
 * JSON nested past 64 levels (which overflowed the stack).
 */

let server: TestServer
let adminCookie: Record<string, string>

beforeAll(async () => {
  server = await startTestServer()
  adminCookie = { cookie: `api_component=${await server.tokenFor('ROLE_ADMIN')}` }
})
afterAll(async () => {
  await server?.close()
})

const json = { accept: 'application/json' }

function expectPayload400(response: TestResponse, label: string) {
  expect({ label, status: response.status }).toEqual({ label, status: 400 })
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/)
  expect(typeof response.body?.errors?.[0]?.message).toBe('string')
  expect(response.body.errors[0].message.length).toBeGreaterThan(10)
}

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`

describe('attack: query parameters the database cannot process are a 400 on /api, never a 500', () => {
  const queries = [
    'where[title][like]=%00',
    'where[title][equals]=%00',
    'where[title][in]=%00',
    'where[title][in]=a,%00',
    'where[path][like]=%00',
    'where[html][like]=x%00y',
    'page=-5',
    'page=0',
    'page=1.5',
    'page=99999999999999999999',
    'limit=-1',
    'depth=-1',
    'where[id][in]=a,b',
    'where[id][equals]=not-a-uuid',
    'where[id][not_in]=a',
    'where[x][near]=1,2',
    'where[createdAt][near]=1,2,3',
    'where[createdAt][within]=x',
    'where[createdAt][intersects]=x',
    'where[or][0][createdAt][within]=x',
    'where[createdAt][equals]=not-a-date',
    'where=%7Bbad',
    `where=${encodeURIComponent(`{"a":${nested(200)}}`)}`,
  ]
  for (const collection of ['pages', 'routes', 'html_contents']) {
    it(`GET /api/${collection}: each hostile query is a 400 with a message`, async () => {
      for (const query of queries) {
        const response = await server.get(`/api/${collection}?${query}`, { headers: json })
        // A path a collection does not have is Payload's own 400 ("cannot be queried"); a date that is no date may match nothing (200).
        if (response.status === 200) {
          expect({ query, docs: response.body.docs }).toEqual({ query, docs: [] })
          continue
        }
        expectPayload400(response, `${collection} ${query}`)
      }
    })
  }

  it('the same query sent as a form body with a GET method override is checked too', async () => {
    const response = await server.request('POST', '/api/pages', undefined, {
      raw: 'where[title][like]=%00',
      contentType: 'application/x-www-form-urlencoded',
      headers: { ...json, 'x-payload-http-method-override': 'GET' },
    })
    expectPayload400(response, 'override')
  })

  it('valid queries still answer as before', async () => {
    for (const query of [
      'page=1',
      'limit=0',
      'depth=0',
      'where[title][like]=x',
      'where[id][in]=00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await server.get(`/api/pages?${query}`, { headers: json })
      expect({ query, status: response.status }).toEqual({ query, status: 200 })
    }
  })
})

describe('attack: JSON nested 10,000 levels deep (a stack overflow, 500) is refused before Payload parses it', () => {
  it('POST /api/html_contents with a 10,000-level body: 400 in Payload shape, nothing stored', async () => {
    const before = (await server.sql('SELECT count(*)::int AS n FROM _acb_html_contents'))[0].n
    for (const headers of [{}, adminCookie]) {
      const response = await server.request('POST', '/api/html_contents', undefined, {
        raw: `{"html":"<p>x</p>","deep":${nested(10_000)}}`,
        contentType: 'application/json',
        headers: { ...json, ...headers },
      })
      expectPayload400(response, 'deep JSON')
      expect(response.body.errors[0].message).toMatch(/64 levels/)
    }
    expect((await server.sql('SELECT count(*)::int AS n FROM _acb_html_contents'))[0].n).toBe(before)
  })

  it('the same in the _payload field of a multipart body is a 400', async () => {
    const boundary = 'x-boundary-1'
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n{"html":${nested(10_000)}}\r\n--${boundary}--\r\n`
    const response = await server.request('POST', '/api/html_contents', undefined, {
      raw,
      contentType: `multipart/form-data; boundary=${boundary}`,
      headers: { ...json, ...adminCookie },
    })
    expectPayload400(response, 'multipart')
  })

  it('64 levels still pass the check (Payload decides about the value)', async () => {
    const response = await server.request('POST', '/api/html_contents', undefined, {
      raw: JSON.stringify({ html: '<p>ok</p>', extra: JSON.parse(nested(63)) }),
      contentType: 'application/json',
      headers: { ...json, ...adminCookie },
    })
    expect(response.status).toBe(201)
  })

  it('/_api keeps its answer: a 422 on the property holding the deep value', async () => {
    const token = await server.tokenFor('ROLE_ADMIN')
    const response = await server.post('/_api/component/html_contents', undefined, {
      token,
      raw: `{"html":${nested(10_000)}}`,
    })
    expect(response.status).toBe(422)
    expect(response.body.violations[0]).toMatchObject({ propertyPath: 'html', code: 'too_deep' })
    const root = await server.post('/_api/component/html_contents', undefined, { token, raw: nested(10_000) })
    expect(root.status).toBe(422)
  })
})
