/**
 * No request path answers 500 for bad input, and bad input never writes
 * anything: every case below gets the 4xx the contract gives it (a JSON-LD
 * error body; 400 malformed, 404 unknown, 405, 409, 413, 415, 422 invalid)
 * and leaves the database exactly as it was (a digest of every row of every
 * table of the service is compared before and after).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import net from 'node:net'
import pg from 'pg'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'

let server: TestServer
let db: pg.Client
let admin: string
let tables: string[]

const UNKNOWN_UUID = '0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e'
let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`

/** Fixtures created once: one item of several resources, used as PATCH/DELETE targets and relation targets. */
const fx: Record<string, Record<string, any>> = {}

beforeAll(async () => {
  server = await startTestServer()
  db = new pg.Client({ connectionString: server.databaseUrl })
  await db.connect()
  db.on('error', () => {})
  // Not compared: sessions, Payload's own bookkeeping, and the read model (the answers of reads, kept like a cache).
  const { rows } = await db.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('payload_migrations', '_acb_refresh_tokens', 'payload_locked_documents', 'payload_locked_documents_rels', 'payload_preferences', 'payload_preferences_rels', '_acb_read_model', '_acb_read_model_fence') ORDER BY table_name",
  )
  tables = rows.map((r) => r.table_name)
  admin = await server.tokenFor('ROLE_ADMIN')

  const post = async (path: string, body: Record<string, unknown>) => {
    const response = await server.post(path, body, { token: admin })
    if (response.status !== 201) throw new Error(`fixture ${path}: ${response.status} ${response.text}`)
    return response.body as Record<string, any>
  }
  fx.layout = await post('/_api/_/layouts', { reference: 'bad-input-layout' })
  fx.page = await post('/_api/_/pages', { reference: 'bad-input-page', layout: fx.layout['@id'], title: 'Page' })
  fx.template = await post('/_api/_/pages', {
    reference: 'bad-input-template',
    layout: fx.layout['@id'],
    isTemplate: true,
  })
  fx.route = await post('/_api/_/routes', { path: '/bad-input', page: fx.page['@id'] })
  fx.group = await post('/_api/_/component_groups', { reference: 'bad-input-group' })
  fx.title = await post('/_api/component/titles', { title: 'A title' })
  fx.html = await post('/_api/component/html_contents', { html: '<p>x</p>' })
  fx.position = await post('/_api/_/component_positions', {
    componentGroup: fx.group['@id'],
    component: fx.html['@id'],
  })
  fx.navigation = await post('/_api/component/navigation_links', { label: 'Nav', route: fx.route['@id'] })
  fx.collection = await post('/_api/component/collections', { resourceIri: '/_api/_/pages' })
  fx.form = await post('/_api/component/forms', { formType: 'ExampleFormType' })
  fx.blog = await post('/_api/page_data/blog_article_datas', {
    title: 'Blog',
    page: fx.template['@id'],
    htmlContent: fx.html['@id'],
  })
})
afterAll(async () => {
  await db?.end().catch(() => {})
  await server.close()
})

/** A digest of every row of every table: any insert, update or delete changes it (one query). */
async function snapshot(): Promise<Record<string, string>> {
  const sql = tables
    .map(
      (table, i) =>
        `SELECT ${i} AS i, count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${table}" t`,
    )
    .join(' UNION ALL ')
  const { rows } = await db.query<{ i: number; digest: string }>(sql)
  return Object.fromEntries(rows.map((r) => [tables[r.i]!, r.digest]))
}

function expectClientError(response: TestResponse, label: string) {
  if (response.status < 400 || response.status >= 500) {
    throw new Error(`${label}: expected a 4xx, got ${response.status} ${response.text.slice(0, 300)}`)
  }
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/ld\+json/)
  expect(['Error', 'ConstraintViolation']).toContain(response.body?.['@type'])
  expect(response.body.status).toBe(response.status)
}

/** Runs requests that must all fail with the given 4xx, then checks nothing at all changed in the database. */
async function expectAllRefused(requests: Array<[label: string, send: () => Promise<TestResponse>, status: number]>) {
  const before = await snapshot()
  for (const [label, send, status] of requests) {
    const response = await send()
    expectClientError(response, label)
    if (response.status !== status) {
      throw new Error(`${label}: expected ${status}, got ${response.status} ${response.text.slice(0, 300)}`)
    }
  }
  expect(await snapshot()).toEqual(before)
}

/** A request with full control over headers (Host included) and raw bytes. */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Promise<TestResponse> {
  const url = new URL(server.url)
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method, path, headers, setHost: !('host' in headers) },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (c: Buffer) => chunks.push(c))
        response.on('end', () => {
          const text = Buffer.concat(chunks as unknown as Uint8Array[]).toString('utf8')
          let parsed: unknown = text
          try {
            parsed = text ? JSON.parse(text) : undefined
          } catch {
            /* not JSON */
          }
          const responseHeaders = new Headers()
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value)
          }
          resolve({ status: response.statusCode!, headers: responseHeaders, body: parsed, text })
        })
      },
    )
    request.on('error', reject)
    if (body !== undefined) request.write(body)
    request.end()
  })
}

/**
 * Sends a request over a raw socket whose body is shorter than its
 * Content-Length, then closes the sending side (nothing more will come), or
 * drops the connection altogether; resolves with whatever came back.
 */
function cutShort(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
  contentLength: number,
  close: 'end' | 'destroy',
): Promise<string> {
  const url = new URL(server.url)
  return new Promise((resolve) => {
    let received = ''
    const socket = net.connect(Number(url.port), url.hostname, () => {
      const head = [
        `${method} ${path} HTTP/1.1`,
        `Host: ${url.host}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
        `Content-Length: ${contentLength}`,
      ]
      // Closed once the bytes are handed over: a FIN after them ('end'), or a reset ('destroy').
      socket.write(`${head.join('\r\n')}\r\n\r\n${body}`, () => (close === 'end' ? socket.end() : socket.destroy()))
    })
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')))
    socket.on('error', () => {})
    socket.on('close', () => resolve(received))
  })
}

const auth = () => ({ token: admin })

describe('malformed bodies', () => {
  it('malformed JSON, non-object bodies and wrong media types on every writable resource', async () => {
    const targets = [
      fx.layout,
      fx.page,
      fx.route,
      fx.group,
      fx.position,
      fx.title,
      fx.html,
      fx.navigation,
      fx.collection,
      fx.blog,
    ]
    const requests: Array<[string, () => Promise<TestResponse>, number]> = []
    for (const item of targets) {
      const collection = String(item['@id']).replace(/\/[^/]+$/, '')
      for (const raw of ['{', '{"a":}', '[1,2', 'nul', '{"title": "x"}}', '\uFEFF\uFEFF{}', '{"a": 1e999999999999}x']) {
        requests.push([`POST ${collection} ${raw}`, () => server.post(collection, undefined, { ...auth(), raw }), 400])
        requests.push([
          `PATCH ${item['@id']} ${raw}`,
          () => server.patch(item['@id'], undefined, { ...auth(), raw }),
          400,
        ])
      }
      for (const raw of ['[]', '"x"', '1', 'null', 'false']) {
        requests.push([`POST ${collection} ${raw}`, () => server.post(collection, undefined, { ...auth(), raw }), 400])
        requests.push([
          `PATCH ${item['@id']} ${raw}`,
          () => server.patch(item['@id'], undefined, { ...auth(), raw }),
          400,
        ])
      }
      requests.push([
        `POST ${collection} text/plain`,
        () => server.post(collection, {}, { ...auth(), contentType: 'text/plain' }),
        415,
      ])
      requests.push([
        `PATCH ${item['@id']} json`,
        () => server.patch(item['@id'], {}, { ...auth(), contentType: 'application/json' }),
        415,
      ])
    }
    await expectAllRefused(requests)
  })

  it('invalid UTF-8 bytes are decoded as replacement characters (201, stored as U+FFFD), never a 500', async () => {
    const invalidUtf8 = Buffer.concat([
      Buffer.from('{"reference": "'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ] as unknown as Uint8Array[])
    const response = await rawRequest(
      'POST',
      '/_api/_/layouts',
      { 'content-type': 'application/ld+json', authorization: `Bearer ${admin}` },
      invalidUtf8,
    )
    expect(response.status).toBe(201)
    expect(response.body.reference).toBe('\ufffd\ufffd\ufffd')
    const { rows } = await db.query<{ reference: string }>('SELECT reference FROM _acb_layouts WHERE id = $1', [
      response.body.id,
    ])
    expect(rows[0]?.reference).toBe('\ufffd\ufffd\ufffd')
    expect((await server.delete(response.body['@id'], auth())).status).toBe(204)
  })

  it('a body cut short (Content-Length larger than what is sent, then the connection closed) is a 400 from HTTP itself and writes nothing', async () => {
    const jsonld = {
      'content-type': 'application/ld+json',
      accept: 'application/ld+json',
      authorization: `Bearer ${admin}`,
    }
    const before = await snapshot()
    const halfClosed: Array<[string, string, Record<string, string>, string]> = [
      ['POST', '/_api/_/layouts', jsonld, '{"reference": "cut-'],
      ['POST', '/_api/_/layouts', jsonld, '{"reference": "cut-short"}'],
      ['POST', '/_api/_/layouts', jsonld, ''],
      ['PATCH', fx.layout['@id'], { ...jsonld, 'content-type': 'application/merge-patch+json' }, '{"reference": "cut-'],
      ['POST', '/_api/_/pages', jsonld, `{"reference": "cut-page", "layout": "${fx.layout['@id']}"`],
      ['POST', '/_api/login', { 'content-type': 'application/json' }, '{"username": "cut'],
      [
        'POST',
        '/api/layouts',
        { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        '{"reference": "cut-',
      ],
    ]
    for (const [method, path, headers, body] of halfClosed) {
      const received = await cutShort(method, path, headers, body, body.length + 100, 'end')
      // The HTTP parser answers before any route runs: no JSON-LD body, the connection closed.
      expect({ request: `${method} ${path} ${body}`, statusLine: received.split('\r\n')[0] }).toEqual({
        request: `${method} ${path} ${body}`,
        statusLine: 'HTTP/1.1 400 Bad Request',
      })
    }
    // A client that disappears mid-body gets nothing, and nothing is written either.
    expect(await cutShort('POST', '/_api/_/layouts', jsonld, '{"reference": "cut-', 200, 'destroy')).toBe('')
    expect(await snapshot()).toEqual(before)
    // The server keeps serving.
    expect((await server.get(fx.layout['@id'])).status).toBe(200)
  })

  it('an oversized body is a 413 on every write path', async () => {
    const raw = JSON.stringify({ title: 'x'.repeat(21 * 1024 * 1024 + 10) })
    await expectAllRefused([
      ['POST pages', () => server.post('/_api/_/pages', undefined, { ...auth(), raw }), 413],
      ['PATCH page', () => server.patch(fx.page['@id'], undefined, { ...auth(), raw }), 413],
      ['POST titles', () => server.post('/_api/component/titles', undefined, { ...auth(), raw }), 413],
    ])
  })

  it('a JSON value nested very deep', async () => {
    const deep = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
    const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth)
    const requests: Array<[string, () => Promise<TestResponse>, number]> = []
    for (const value of [deep(100_000), deepArray(200_000), deep(100)]) {
      requests.push([
        'json property',
        () =>
          server.post('/_api/component/collections', undefined, {
            ...auth(),
            raw: `{"resourceIri":"/_api/_/pages","defaultQueryParameters":${value}}`,
          }),
        422,
      ])
      requests.push([
        'json property PATCH',
        () => server.patch(fx.collection['@id'], undefined, { ...auth(), raw: `{"defaultQueryParameters":${value}}` }),
        422,
      ])
      requests.push([
        'text property',
        () => server.post('/_api/component/titles', undefined, { ...auth(), raw: `{"title":${value}}` }),
        422,
      ])
      requests.push([
        'list property',
        () =>
          server.post('/_api/_/layouts', undefined, { ...auth(), raw: `{"reference":"deep","uiClassNames":${value}}` }),
        422,
      ])
      requests.push([
        'relation property',
        () => server.post('/_api/_/pages', undefined, { ...auth(), raw: `{"reference":"deep","layout":${value}}` }),
        422,
      ])
    }
    await expectAllRefused(requests)
  })
})

describe('values the database cannot store', () => {
  it('NUL characters and lone surrogates are a 422 on their property', async () => {
    const before = await snapshot()
    const cases: Array<[string, string, string, string]> = [
      ['/_api/_/layouts', '{"reference":"a\\u0000b"}', 'reference', 'POST'],
      ['/_api/_/layouts', '{"reference":"ok-nul","uiClassNames":["a\\u0000"]}', 'uiClassNames[0]', 'POST'],
      ['/_api/component/titles', '{"title":"\\ud800"}', 'title', 'POST'],
      ['/_api/component/html_contents', '{"html":"\\udc00 lone low"}', 'html', 'POST'],
      [
        '/_api/component/collections',
        '{"resourceIri":"/_api/_/pages","defaultQueryParameters":{"a\\u0000":"b"}}',
        'defaultQueryParameters',
        'POST',
      ],
      [
        '/_api/component/collections',
        '{"resourceIri":"/_api/_/pages","defaultQueryParameters":{"a":"\\ud800"}}',
        'defaultQueryParameters',
        'POST',
      ],
      [fx.page['@id'], '{"title":"x\\u0000"}', 'title', 'PATCH'],
      [fx.route['@id'], '{"path":"/\\u0000"}', 'path', 'PATCH'],
    ]
    for (const [path, raw, property, method] of cases) {
      const response =
        method === 'POST'
          ? await server.post(path, undefined, { ...auth(), raw })
          : await server.patch(path, undefined, { ...auth(), raw })
      expectClientError(response, `${method} ${path} ${raw}`)
      expect(response.status).toBe(422)
      expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toContain(property)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('a unique/indexed text too long for its index is a 422 on that property (POST and PATCH)', async () => {
    const random = () => Array.from({ length: 400 }, () => Math.random().toString(36).slice(2)).join('')
    const before = await snapshot()
    const cases: Array<[string, () => Promise<TestResponse>, string]> = [
      ['layout reference', () => server.post('/_api/_/layouts', { reference: random() }, auth()), 'reference'],
      [
        'page reference',
        () => server.post('/_api/_/pages', { reference: random(), layout: fx.layout['@id'] }, auth()),
        'reference',
      ],
      [
        'route path',
        () => server.post('/_api/_/routes', { path: `/${random()}`, page: fx.page['@id'] }, auth()),
        'path',
      ],
      ['group reference PATCH', () => server.patch(fx.group['@id'], { reference: random() }, auth()), 'reference'],
      ['route path PATCH', () => server.patch(fx.route['@id'], { path: `/${random()}` }, auth()), 'path'],
    ]
    for (const [label, send, property] of cases) {
      const response = await send()
      expectClientError(response, label)
      expect(response.status).toBe(422)
      expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toContain(property)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('numbers out of any range, odd dates and huge lists never reach a 500', async () => {
    const requests: Array<[string, () => Promise<TestResponse>, number]> = [
      [
        'sortValue 1e999',
        () =>
          server.post('/_api/_/component_positions', undefined, {
            ...auth(),
            raw: `{"componentGroup":"${fx.group['@id']}","sortValue":1e999}`,
          }),
        422,
      ],
      [
        'sortValue -1e999',
        () => server.patch(fx.position['@id'], undefined, { ...auth(), raw: '{"sortValue":-1e999}' }),
        422,
      ],
      ['perPage string', () => server.patch(fx.collection['@id'], { perPage: '10' }, auth()), 422],
      ['perPage 0', () => server.patch(fx.collection['@id'], { perPage: 0 }, auth()), 422],
      ['perPage 1e300', () => server.patch(fx.collection['@id'], { perPage: 1e300 }, auth()), 422],
      [
        '10k unknown IRIs',
        () =>
          server.patch(
            fx.page['@id'],
            {
              componentGroups: Array.from(
                { length: 10_000 },
                (_v, i) => `/_api/_/component_groups/${UNKNOWN_UUID.slice(0, -4)}${String(i).padStart(4, '0')}`,
              ),
            },
            auth(),
          ),
        422,
      ],
      [
        '5k garbage list entries',
        () => server.patch(fx.layout['@id'], { componentGroups: Array.from({ length: 5_000 }, () => 'x') }, auth()),
        422,
      ],
    ]
    await expectAllRefused(requests)
  })
})

describe('relations', () => {
  it('unknown, wrong-type and garbage IRIs are a 422 and write nothing', async () => {
    const requests: Array<[string, () => Promise<TestResponse>, number]> = []
    const bad = [
      `/_api/_/layouts/${UNKNOWN_UUID}`,
      fx.group['@id'],
      fx.title['@id'],
      '/_api/_/layouts',
      '/_api/_/layouts/not-a-uuid',
      'javascript:alert(1)',
      'http://[::1',
      '//evil.example.com/_api/_/layouts/' + UNKNOWN_UUID,
      '/_api/_/layouts/' + UNKNOWN_UUID + '?x=1#y',
      'x'.repeat(5000),
      '%00',
      '',
    ]
    for (const iri of bad) {
      requests.push([
        `page.layout ${iri.slice(0, 60)}`,
        () => server.post('/_api/_/pages', { reference: unique('r'), layout: iri }, auth()),
        422,
      ])
      requests.push([
        `PATCH page.parentPage ${iri.slice(0, 60)}`,
        () => server.patch(fx.page['@id'], { parentPage: iri === fx.title['@id'] ? fx.layout['@id'] : iri }, auth()),
        422,
      ])
      requests.push([
        `position.component ${iri.slice(0, 60)}`,
        () =>
          server.post(
            '/_api/_/component_positions',
            { componentGroup: fx.group['@id'], component: iri === fx.title['@id'] ? fx.layout['@id'] : iri },
            auth(),
          ),
        422,
      ])
      requests.push([
        `blog.htmlContent ${iri.slice(0, 60)}`,
        () => server.patch(fx.blog['@id'], { htmlContent: iri }, auth()),
        422,
      ])
      requests.push([
        `route.pageData ${iri.slice(0, 60)}`,
        () => server.patch(fx.route['@id'], { pageData: iri }, auth()),
        422,
      ])
    }
    await expectAllRefused(requests)
  })
})

describe('item paths', () => {
  const badIds = [
    'abc',
    '1',
    '0',
    '-1',
    'null',
    'undefined',
    '%00',
    '..%2F..%2Fetc%2Fpasswd',
    '..%5C..%5Cwindows',
    '%2e%2e',
    "'%20OR%201=1%20--",
    '%E0%A4%A',
    '%',
    '%ZZ',
    `${UNKNOWN_UUID}x`,
    `${UNKNOWN_UUID.slice(0, -1)}`,
    `{${UNKNOWN_UUID}}`,
    UNKNOWN_UUID.replace(/-/g, ''),
    'x'.repeat(5000),
    '00000000-0000-0000-0000-000000000000',
    UNKNOWN_UUID,
    UNKNOWN_UUID.toUpperCase(),
  ]

  it('non-UUID, unknown and hostile ids are a 404 (400 when not valid %-encoding; 403 for writing a user id that is not your own) on GET, PATCH and DELETE of every resource', async () => {
    const entrypoint = await server.get('/_api/')
    const collections = Object.entries(entrypoint.body as Record<string, string>)
      .filter(([key]) => !key.startsWith('@'))
      .map(([, iri]) => iri)
    expect(collections.length).toBeGreaterThan(8)
    const requests: Array<[string, () => Promise<TestResponse>, number]> = []
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
    for (const collection of collections) {
      for (const id of badIds) {
        // %-sequences are sent as is (rawRequest), never re-encoded by the client.
        const path = `${collection}/${id}`
        const headers = { authorization: `Bearer ${admin}`, accept: 'application/ld+json' }
        // A malformed %-sequence is a 400; anything else names no item: 404. Users (contract, "User"):
        // another account is a 404 to read and a 403 to write, so writing any well-formed id not your own is a 403.
        const malformed = /%(?![0-9a-f]{2})|%E0%A4%A$/i.test(id)
        const expected = (write: boolean) =>
          malformed ? 400 : write && collection === '/_api/users' && uuid.test(id) ? 403 : 404
        requests.push([`GET ${path.slice(0, 80)}`, () => rawRequest('GET', path, headers), expected(false)])
        requests.push([
          `PATCH ${path.slice(0, 80)}`,
          () => rawRequest('PATCH', path, { ...headers, 'content-type': 'application/merge-patch+json' }, '{}'),
          expected(true),
        ])
        requests.push([`DELETE ${path.slice(0, 80)}`, () => rawRequest('DELETE', path, headers), expected(true)])
      }
    }
    await expectAllRefused(requests)
  })

  it('a malformed %-sequence is a 400, a well-formed unknown id a 404', async () => {
    const headers = { accept: 'application/ld+json' }
    const malformed = await rawRequest('GET', '/_api/_/layouts/%E0%A4%A', headers)
    expectClientError(malformed, 'malformed')
    expect(malformed.status).toBe(400)
    for (const id of ['abc', '..%2F..%2Fetc%2Fpasswd', UNKNOWN_UUID, '%00']) {
      const response = await rawRequest('GET', `/_api/_/layouts/${id}`, headers)
      expectClientError(response, id)
      expect(response.status).toBe(404)
    }
  })

  it('path traversal in the URL never escapes the API: a JSON-LD 404', async () => {
    const headers = { accept: 'application/ld+json' }
    for (const path of [
      '/_api/_/layouts/../../../etc/passwd',
      '/_api/_/layouts/%2e%2e/%2e%2e/etc/passwd',
      '/_api/..%2f..%2fpackage.json',
      '/_api//_/layouts//',
    ]) {
      const response = await rawRequest('GET', path, headers)
      expectClientError(response, path)
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
      expect(response.text).not.toMatch(/root:|"dependencies"/)
    }
  })
})

describe('collection parameters', () => {
  it('bad paging, order and search parameters are a 4xx on every collection', async () => {
    const collections = [
      '/_api/_/layouts',
      '/_api/_/pages',
      '/_api/_/routes',
      '/_api/_/component_groups',
      '/_api/component/titles',
      '/_api/page_data/blog_article_datas',
    ]
    const requests: Array<[string, () => Promise<TestResponse>, number]> = []
    for (const collection of collections) {
      const cases: Array<[string, number]> = [
        ['itemsPerPage=1000000', 400],
        ['itemsPerPage=99999999999999999999999999', 400],
        ['itemsPerPage=1e99', 400],
        ['itemsPerPage=0', 400],
        ['itemsPerPage=-1', 400],
        ['itemsPerPage=abc', 400],
        ['itemsPerPage=', 400],
        ['page=0', 400],
        ['page=-1', 400],
        ['page=abc', 400],
        ['page=1e99', 400],
        ['page=1.5', 400],
        ['page=99999999999999999999', 400],
        ['page=', 400],
        ['order[nope]=asc', 400],
        ['order[__proto__]=asc', 400],
        ['order[constructor]=desc', 400],
        ['order[password]=asc', 400],
        ['order[createdAt]=sideways', 422],
        ['order[createdAt]=', 422],
        ['order[createdAt]=asc;drop%20table', 422],
        ['search=%00', 400],
      ]
      for (const [query, status] of cases) {
        // Titles declare no order property at all: any order[...] is an unknown property (400).
        if (collection === '/_api/component/titles' && query.startsWith('search=')) continue // no search declared: ignored
        const expected = collection === '/_api/component/titles' && query.startsWith('order[') ? 400 : status
        requests.push([`GET ${collection}?${query}`, () => server.get(`${collection}?${query}`), expected])
      }
    }
    await expectAllRefused(requests)
  })

  it('odd but harmless parameters are answered (2xx), never a 500', async () => {
    const collections = [
      '/_api/_/layouts',
      '/_api/_/pages',
      '/_api/_/routes',
      '/_api/page_data/blog_article_datas',
      '/_api/_/component_positions',
    ]
    const longSearch = encodeURIComponent('é'.repeat(1000) + 'x%_\\'.repeat(500))
    const before = await snapshot()
    for (const collection of collections) {
      for (const query of [
        `search=${longSearch}`,
        'search=%25',
        'search=_',
        'search=%5C',
        "search='%20OR%201=1%20--",
        'search=%E0%A4%A',
        'search[]=a',
        'search=a&search=b',
        'order=createdAt',
        'order[createdAt][x]=asc',
        'page=1&page=abc',
        'page=1000000',
        'isTemplate=maybe',
        'isTemplate[]=true&isTemplate[]=false',
        'reference=x',
        `${'p'.repeat(2000)}=1`,
        Array.from({ length: 500 }, (_v, i) => `k${i}=v`).join('&'),
      ]) {
        const response = await server.get(`${collection}?${query}`)
        if (response.status >= 500) throw new Error(`GET ${collection}?${query.slice(0, 80)}: ${response.status}`)
        expect(response.status).toBe(200)
        expect(response.body['@type']).toBe('Collection')
      }
    }
    expect(await snapshot()).toEqual(before)
  })

  it('a query string longer than the server accepts is refused by HTTP itself (431), never a 500', async () => {
    const response = await server.get(`/_api/_/layouts?search=${'x'.repeat(20_000)}`)
    expect(response.status).toBe(431)
  })

  it('an item request with an unmatched or hostile search is a 404 (a NUL the database cannot compare: 400), never a 500', async () => {
    for (const [search, status] of [
      ['no-such-thing', 404],
      ['%25', 404],
      ["'", 404],
      ['%00', 400],
    ] as const) {
      const response = await server.get(`${fx.layout['@id']}?search=${search}`)
      expectClientError(response, `search=${search}`)
      expect({ search, status: response.status }).toEqual({ search, status })
    }
  })
})

describe('headers', () => {
  it('a hostile Host header, path header or Accept changes nothing: the usual answer, never a 500', async () => {
    const before = await snapshot()
    for (const host of ['[::1', 'a b', 'exa mple.com:99999', '%00', 'x'.repeat(300), 'localhost:abc']) {
      // IRIs are paths: the Host plays no part in an answer.
      for (const [path, status] of [
        ['/_api/', 200],
        [fx.page['@id'], 200],
        ['/_api/_/pages', 200],
        [`/_api/_/pages/${UNKNOWN_UUID}`, 404],
      ] as const) {
        const response = await rawRequest('GET', path, { host, accept: 'application/ld+json' })
        expect({ host, path, status: response.status }).toEqual({ host, path, status })
        if (status === 200) expect(response.body['@id']).toBe(path.replace(/\/$/, ''))
      }
      const post = await rawRequest(
        'POST',
        '/_api/_/layouts',
        { host, 'content-type': 'application/ld+json', authorization: `Bearer ${admin}` },
        '{"reference":5}',
      )
      expect(post.status).toBe(422)
    }
    for (const pathHeader of [
      'garbage',
      '/',
      '/_api/page_data/blog_article_datas/not-a-uuid',
      `/_api/page_data/blog_article_datas/${UNKNOWN_UUID}`,
      '%',
      'x'.repeat(4000),
      fx.layout['@id'],
    ]) {
      const response = await server.get(fx.position['@id'], { headers: { path: pathHeader } })
      expect(response.status).toBe(200)
    }
    // The API speaks JSON-LD only and answers it whatever Accept asks for.
    for (const accept of ['text/html', 'application/xml', '*/*;q=abc', 'x'.repeat(2000)]) {
      const response = await server.get('/_api/_/layouts', { headers: { accept } })
      expect({ accept: accept.slice(0, 20), status: response.status }).toEqual({
        accept: accept.slice(0, 20),
        status: 200,
      })
      expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('write with a PUT or an unknown method never reaches a 500', async () => {
    await expectAllRefused([
      ['PUT item', () => server.request('PUT', fx.page['@id'], { title: 'x' }, auth()), 405],
      [
        'PUT collection text',
        () => server.request('PUT', '/_api/_/pages', undefined, { ...auth(), raw: 'x', contentType: 'text/plain' }),
        405,
      ],
      ['PUT item malformed', () => server.request('PUT', fx.page['@id'], undefined, { ...auth(), raw: '{' }), 405],
      ['POST item', () => server.post(fx.page['@id'], { title: 'x' }, auth()), 405],
      ['DELETE collection', () => server.delete('/_api/_/pages', auth()), 405],
      ['PATCH collection', () => server.patch('/_api/_/pages', { title: 'x' }, auth()), 405],
    ])
  })
})

describe('integrity', () => {
  it('deleting a layout that a page still needs is refused with a 422 naming the page, nothing deleted (issue 13; it was a 409)', async () => {
    const layout = await server.post('/_api/_/layouts', { reference: unique('in-use') }, auth())
    const page = await server.post(
      '/_api/_/pages',
      { reference: unique('user-of-layout'), layout: layout.body['@id'] },
      auth(),
    )
    expect(page.status).toBe(201)
    await expectAllRefused([['DELETE layout in use', () => server.delete(layout.body['@id'], auth()), 422]])
    expect((await server.delete(layout.body['@id'], auth())).body.violations[0]).toMatchObject({
      propertyPath: 'pages',
      message: expect.stringContaining(page.body['@id']),
    })
    expect((await server.get(layout.body['@id'])).status).toBe(200)
    expect((await server.get(page.body['@id'])).body.layout).toBe(layout.body['@id'])
  })

  // A parent cycle is refused (issue 11): a page made its own parent, or the parent of its own parent, is a
  // 422 on parentPage and nothing is stored; every read still answers (test/core/parentCycles.test.ts has the rest).
  it('a self or circular parent is a 422 on parentPage, nothing stored, and never reaches a 500', async () => {
    const a = await server.post('/_api/_/pages', { reference: unique('a'), layout: fx.layout['@id'] }, auth())
    const b = await server.post(
      '/_api/_/pages',
      { reference: unique('b'), layout: fx.layout['@id'], parentPage: a.body['@id'] },
      auth(),
    )
    const self = await server.patch(a.body['@id'], { parentPage: a.body['@id'] }, auth())
    expect(self.status).toBe(422)
    expect(self.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['parentPage'])
    const cycle = await server.patch(a.body['@id'], { parentPage: b.body['@id'] }, auth())
    expect(cycle.status).toBe(422)
    expect(cycle.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['parentPage'])
    expect((await server.get(a.body['@id'])).body.parentPage).toBeNull()
    expect((await server.get(b.body['@id'])).body.parentPage).toBe(a.body['@id'])
    expect((await server.get('/_api/_/pages')).status).toBe(200)
  })
})

/** Weird JSON values sent to every writable property of a few resources. */
const WEIRD: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\ud83d\ude00 emoji',
  'é'.repeat(3000),
  'x'.repeat(50_000),
  '<script>alert(1)</script>',
  "'; DROP TABLE _acb_pages; --",
  '/_api/_/layouts/not-a-uuid',
  `/_api/_/layouts/${UNKNOWN_UUID}`,
  '/_api/_/layouts',
  '2020-13-45T99:99:99Z',
  '-271821-04-20T00:00:00.000Z',
  [],
  [null],
  [1, 2],
  [[]],
  [{}],
  [`/_api/_/component_groups/${UNKNOWN_UUID}`],
  {},
  { '@id': `/_api/_/layouts/${UNKNOWN_UUID}` },
  { a: { b: { c: [1, { d: null }] } } },
  { __proto__: null, constructor: 1 },
]

/** Resource, a fresh valid body for POST, and its writable properties. */
const FUZZ: Array<{
  collection: string
  valid: () => Record<string, unknown>
  properties: string[]
  item: () => string
}> = [
  {
    collection: '/_api/_/layouts',
    valid: () => ({ reference: unique('fz') }),
    properties: ['reference', 'uiComponent', 'uiClassNames', 'componentGroups'],
    item: () => fx.layout['@id'],
  },
  {
    collection: '/_api/_/pages',
    valid: () => ({ reference: unique('fz'), layout: fx.layout['@id'] }),
    properties: [
      'title',
      'metaDescription',
      'reference',
      'uiComponent',
      'uiClassNames',
      'isTemplate',
      'layout',
      'parentPage',
      'parentPageData',
      'componentGroups',
    ],
    item: () => fx.page['@id'],
  },
  {
    collection: '/_api/_/routes',
    valid: () => ({ path: `/${unique('fz')}`, page: fx.page['@id'] }),
    properties: ['path', 'page', 'pageData', 'redirect'],
    item: () => fx.route['@id'],
  },
  {
    collection: '/_api/_/component_groups',
    valid: () => ({ reference: unique('fz') }),
    properties: ['reference', 'location', 'allowedComponents'],
    item: () => fx.group['@id'],
  },
  {
    collection: '/_api/_/component_positions',
    valid: () => ({ componentGroup: fx.group['@id'] }),
    properties: ['componentGroup', 'component', 'sortValue', 'pageDataClass', 'pageDataProperty'],
    item: () => fx.position['@id'],
  },
  {
    collection: '/_api/component/navigation_links',
    valid: () => ({ label: 'x' }),
    properties: ['label', 'route', 'rawPath', 'uiComponent', 'uiClassNames', 'componentGroups'],
    item: () => fx.navigation['@id'],
  },
  {
    collection: '/_api/component/titles',
    valid: () => ({ title: 'x' }),
    properties: ['title', 'uiComponent', 'uiClassNames', 'componentGroups'],
    item: () => fx.title['@id'],
  },
  {
    collection: '/_api/component/html_contents',
    valid: () => ({}),
    properties: ['html'],
    item: () => fx.html['@id'],
  },
  {
    collection: '/_api/component/forms',
    valid: () => ({ formType: 'ExampleFormType' }),
    properties: ['formType'],
    item: () => fx.form['@id'],
  },
  {
    collection: '/_api/component/collections',
    valid: () => ({ resourceIri: '/_api/_/pages' }),
    properties: ['resourceIri', 'perPage', 'defaultQueryParameters'],
    item: () => fx.collection['@id'],
  },
  {
    collection: '/_api/page_data/blog_article_datas',
    valid: () => ({ title: 'x', page: fx.template['@id'] }),
    properties: ['title', 'metaDescription', 'page', 'parentPage', 'parentPageData', 'htmlContent', 'image'],
    item: () => fx.blog['@id'],
  },
  {
    collection: '/_api/users',
    valid: () => {
      const name = unique('fz').replace(/-/g, '_')
      return { username: name, emailAddress: `${name}@example.com`, plainPassword: 'a long password' }
    },
    properties: ['username', 'emailAddress', 'plainPassword', 'newEmailAddress', 'roles', 'enabled'],
    item: () => fx.user!,
  },
]

describe('fuzz: weird values for every writable property', () => {
  let superAdmin: string
  beforeAll(async () => {
    superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
    fx.user = `/_api/users/${await server.createUser('fuzz_target')}` as never
  })

  for (const resource of FUZZ) {
    it(`${resource.collection}: POST and PATCH never answer 500, a refusal writes nothing`, async () => {
      const token = resource.collection === '/_api/users' ? superAdmin : admin
      // The database as last seen: a refusal leaves it so, only an accepted write moves it on.
      let known = await snapshot()
      for (const property of resource.properties) {
        for (const value of WEIRD) {
          const label = `${property}=${JSON.stringify(value)?.slice(0, 60)}`
          const post = await server.post(resource.collection, { ...resource.valid(), [property]: value }, { token })
          if (post.status >= 500)
            throw new Error(`POST ${resource.collection} ${label}: ${post.status} ${post.text.slice(0, 300)}`)
          if (post.status >= 400) {
            // A value the property cannot take: a 422 naming what is wrong.
            expectClientError(post, `POST ${label}`)
            expect({ label, status: post.status, type: post.body['@type'] }).toEqual({
              label,
              status: 422,
              type: 'ConstraintViolation',
            })
            expect(post.body.violations.length).toBeGreaterThan(0)
            expect(await snapshot()).toEqual(known)
          } else {
            expect(post.status).toBe(201)
            const cleanup = await server.delete(post.body['@id'], { token })
            expect(cleanup.status).toBe(204)
            known = await snapshot()
          }
          const patch = await server.patch(resource.item(), { [property]: value }, { token })
          if (patch.status >= 500)
            throw new Error(`PATCH ${resource.item()} ${label}: ${patch.status} ${patch.text.slice(0, 300)}`)
          if (patch.status >= 400) {
            expectClientError(patch, `PATCH ${label}`)
            expect({ label, status: patch.status, type: patch.body['@type'] }).toEqual({
              label,
              status: 422,
              type: 'ConstraintViolation',
            })
            expect(patch.body.violations.length).toBeGreaterThan(0)
            expect(await snapshot()).toEqual(known)
          } else {
            expect({ label, status: patch.status }).toEqual({ label, status: 200 })
            known = await snapshot()
          }
        }
      }
      // The fixture is still readable after all that.
      expect((await server.get(resource.item(), { token })).status).toBe(200)
    }, 120_000)
  }
})
