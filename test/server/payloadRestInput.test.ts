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

/**
 * Bad input: a document write on /api whose body Payload does not read.
 * Payload parses a body only when its type is exactly `application/json`;
 * any other type left the operation without data and its beforeValidate
 * hooks failed on it (a 500). JSON under its other names (merge-patch,
 * which the JSON-LD API's front ends send with PATCH, ld+json, another
 * case) is read as JSON; another type is a 415; a body that is no JSON
 * object is a 400. Nothing is written either way.
 */
describe('bad input: document writes on /api in a content type Payload does not parse are read as JSON or refused, never a 500', () => {
  const admin = () => ({ ...json, ...adminCookie })
  // fetch directly: a string body would get text/plain, and server.request adds JSON-LD's types.
  const write = async (method: string, path: string, raw: string, contentType?: string): Promise<TestResponse> => {
    const headers: Record<string, string> = admin()
    if (contentType) headers['content-type'] = contentType
    const body = raw === '' ? undefined : new TextEncoder().encode(raw)
    const response = await fetch(`${server.url}${path}`, { method, headers, body })
    const text = await response.text()
    let parsed: any
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      parsed = text
    }
    return { status: response.status, headers: response.headers, body: parsed, text }
  }
  const created = async (path: string, data: Record<string, unknown>) => {
    const response = await write('POST', path, JSON.stringify(data), 'application/json')
    expect({ path, status: response.status }).toEqual({ path, status: 201 })
    return response.body.doc as { id: string } & Record<string, unknown>
  }
  const count = async (table: string) => (await server.sql(`SELECT count(*)::int AS n FROM ${table}`))[0].n as number
  let routeId: string
  let pageId: string
  let htmlId: string

  beforeAll(async () => {
    const layout = await created('/api/layouts', { reference: 'content-types' })
    pageId = (await created('/api/pages', { reference: 'content-types', title: 'Types', layout: layout.id })).id
    routeId = (await created('/api/routes', { path: '/content-types', page: pageId })).id
    htmlId = (await created('/api/html_contents', { html: '<p>first</p>' })).id
  })

  it('PATCH /api/routes/:id as application/merge-patch+json (a JSON-LD front end) updates the route', async () => {
    const response = await write(
      'PATCH',
      `/api/routes/${routeId}`,
      '{"path":"/content-types-2"}',
      'application/merge-patch+json',
    )
    expect(response.status).toBe(200)
    expect(response.body.doc.path).toBe('/content-types-2')
    const stored = await server.get(`/api/routes/${routeId}?depth=0`, { headers: admin() })
    expect(stored.body.path).toBe('/content-types-2')
  })

  it('JSON by its other names (ld+json, merge-patch, another case, a charset) works on pages and components, one and many', async () => {
    const cases: Array<[string, string, Record<string, unknown>, string, number]> = [
      ['POST', '/api/html_contents', { html: '<p>ld</p>' }, 'application/ld+json', 201],
      ['PATCH', `/api/html_contents/${htmlId}`, { html: '<p>case</p>' }, 'Application/JSON; charset=UTF-8', 200],
      ['PATCH', `/api/pages/${pageId}`, { title: 'Types renamed' }, 'application/merge-patch+json', 200],
      [
        'PATCH',
        `/api/html_contents?where[id][equals]=${htmlId}`,
        { html: '<p>many</p>' },
        'application/merge-patch+json',
        200,
      ],
      ['POST', `/api/html_contents/${htmlId}/duplicate`, {}, 'application/merge-patch+json', 200],
    ]
    for (const [method, path, data, contentType, status] of cases) {
      const response = await write(method, path, JSON.stringify(data), contentType)
      expect({ method, path, contentType, status: response.status }).toEqual({ method, path, contentType, status })
    }
    const html = await server.get(`/api/html_contents/${htmlId}?depth=0`, { headers: admin() })
    expect(html.body.html).toBe('<p>many</p>')
    expect((await server.get(`/api/pages/${pageId}?depth=0`, { headers: admin() })).body.title).toBe('Types renamed')
  })

  it('a body of another type (text/plain holding JSON, none, a form, XML) is a 415 naming the accepted types, nothing written; an empty body still passes', async () => {
    const before = { pages: await count('_acb_pages'), html: await count('_acb_html_contents') }
    const types = ['text/plain', undefined, 'application/x-www-form-urlencoded', 'application/xml']
    for (const [method, path] of [
      ['POST', '/api/pages'],
      ['POST', '/api/html_contents'],
      ['POST', '/api/routes'],
      ['PATCH', `/api/routes/${routeId}`],
      ['PATCH', `/api/html_contents/${htmlId}`],
    ] as const) {
      for (const contentType of types) {
        const raw = contentType === 'application/xml' ? '<path>/x</path>' : '{"path":"/refused","html":"<p>no</p>"}'
        const response = await write(method, path, raw, contentType)
        const label = `${method} ${path} ${contentType ?? '(none)'}`
        expect({ label, status: response.status }).toEqual({ label, status: 415 })
        expect(response.body.errors[0].message).toMatch(/application\/json.*merge-patch\+json/)
        if (method === 'PATCH') expect(response.headers.get('accept-patch')).toMatch(/merge-patch\+json/)
      }
    }
    expect({ pages: await count('_acb_pages'), html: await count('_acb_html_contents') }).toEqual(before)
    const route = await server.get(`/api/routes/${routeId}?depth=0`, { headers: admin() })
    expect(route.body.path).toBe('/content-types-2')
    // What the 415 must not catch: an empty body (an empty change), a DELETE's body (unread), a PUT (no such route).
    expect((await write('PATCH', `/api/html_contents/${htmlId}`, '')).status).toBe(200)
    const doomed = await created('/api/html_contents', { html: '<p>doomed</p>' })
    const deleted = await write('DELETE', `/api/html_contents/${doomed.id}`, '{"x":1}', 'text/plain')
    expect(deleted.status).toBe(200)
    const put = await write('PUT', `/api/html_contents/${htmlId}`, '{"html":"x"}', 'text/plain')
    expect(put.status).toBeGreaterThanOrEqual(400)
    expect(put.status).toBeLessThan(500)
  })

  it('a JSON body that is no object (malformed, null, an array, a string, a number) is a 400', async () => {
    for (const raw of ['{"path":', 'null', '[]', '"x"', '1']) {
      for (const contentType of ['application/json', 'application/merge-patch+json']) {
        for (const [method, path] of [
          ['POST', '/api/html_contents'],
          ['PATCH', `/api/routes/${routeId}`],
        ] as const) {
          expectPayload400(await write(method, path, raw, contentType), `${method} ${path} ${contentType} ${raw}`)
        }
      }
    }
  })

  it('multipart on a collection without uploads: _payload is read; a malformed or missing _payload is a 400', async () => {
    const multipart = (fields: Record<string, string>) => {
      const boundary = 'x-boundary-2'
      const parts = Object.entries(fields).map(
        ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      return { raw: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` }
    }
    const send = (method: string, path: string, fields: Record<string, string>) => {
      const { raw, contentType } = multipart(fields)
      return write(method, path, raw, contentType)
    }
    expect((await send('PATCH', `/api/html_contents/${htmlId}`, { _payload: '{"html":"<p>form</p>"}' })).status).toBe(
      200,
    )
    const fieldSets: Array<Record<string, string>> = [
      { _payload: '{"html":' },
      { _payload: 'null' },
      { html: '<p>x</p>' },
    ]
    for (const fields of fieldSets) {
      expectPayload400(await send('POST', '/api/html_contents', fields), `multipart ${JSON.stringify(fields)}`)
      expectPayload400(await send('PATCH', `/api/routes/${routeId}`, fields), `multipart ${JSON.stringify(fields)}`)
    }
  })
})
