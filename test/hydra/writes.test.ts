/**
 * Writes through the JSON-LD API: media types, POST/PATCH/DELETE semantics,
 * relations written as IRIs, type checks, required and unique constraints,
 * body syntax and size. Every error body must be JSON-LD.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'

let server: TestServer
let admin: string
let superAdmin: string
let layoutIri: string
let layoutId: string

const UNKNOWN_UUID = '0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e'
let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
  const layout = await server.payload.create({
    collection: 'layouts',
    data: { reference: 'writes-layout' } as never,
    depth: 0,
  })
  layoutId = String(layout.id)
  layoutIri = `/_api/_/layouts/${layoutId}`
})
afterAll(async () => {
  await server.close()
})

const count = (collection: string) => server.payload.count({ collection: collection as never }).then((r) => r.totalDocs)

/** Every error answer: JSON-LD media type, Hydra Error with title/detail/status equal to the HTTP status. */
function expectHydraError(response: TestResponse, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
  expect(response.body).toMatchObject({ '@type': 'Error', status })
  expect(response.body['@context']).toBe('/_api/contexts/Error')
  expect(typeof response.body.title).toBe('string')
  expect(response.body.title.length).toBeGreaterThan(0)
  expect(typeof response.body.detail).toBe('string')
  expect(response.body.detail.length).toBeGreaterThan(0)
}

/** A 422: ConstraintViolation listing every violation with propertyPath, message and code. */
function expectViolations(response: TestResponse, expected: Array<{ propertyPath: string; code?: string }>) {
  expect(response.status).toBe(422)
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
  expect(response.body['@type']).toBe('ConstraintViolation')
  expect(response.body['@context']).toBe('/_api/contexts/ConstraintViolation')
  expect(response.body.status).toBe(422)
  expect(typeof response.body.title).toBe('string')
  expect(typeof response.body.detail).toBe('string')
  const violations = response.body.violations as Array<{ propertyPath: unknown; message: unknown; code: unknown }>
  expect(Array.isArray(violations)).toBe(true)
  for (const v of violations) {
    expect(typeof v.propertyPath).toBe('string')
    expect(typeof v.message).toBe('string')
    expect((v.message as string).length).toBeGreaterThan(0)
    expect(typeof v.code).toBe('string')
  }
  for (const e of expected) {
    const match = violations.find(
      (v) => v.propertyPath === e.propertyPath && (e.code === undefined || v.code === e.code),
    )
    if (!match) throw new Error(`no violation ${JSON.stringify(e)} in ${JSON.stringify(violations)}`)
  }
}

async function createPage(extra: Record<string, unknown> = {}) {
  const response = await server.post(
    '/_api/_/pages',
    { reference: unique('page'), layout: layoutIri, ...extra },
    { token: admin },
  )
  expect(response.status).toBe(201)
  return response.body as Record<string, any>
}

describe('POST media types', () => {
  it('accepts application/ld+json: 201 with Location and Content-Location = @id', async () => {
    const before = await count('layouts')
    const response = await server.post('/_api/_/layouts', { reference: unique('ld') }, { token: admin })
    expect(response.status).toBe(201)
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    expect(response.body['@type']).toBe('Layout')
    expect(response.body['@id']).toMatch(/^\/_api\/_\/layouts\/[0-9a-f-]{36}$/)
    expect(response.headers.get('location')).toBe(response.body['@id'])
    expect(response.headers.get('content-location')).toBe(response.body['@id'])
    expect(await count('layouts')).toBe(before + 1)
    const read = await server.get(response.headers.get('location')!)
    expect(read.status).toBe(200)
    expect(read.body.reference).toBe(response.body.reference)
  })

  it('accepts application/json, with or without charset', async () => {
    for (const contentType of [
      'application/json',
      'application/json; charset=utf-8',
      'Application/LD+JSON; charset=UTF-8',
    ]) {
      const reference = unique('json')
      const response = await server.post('/_api/_/layouts', { reference }, { token: admin, contentType })
      expect(response.status).toBe(201)
      expect(response.headers.get('location')).toBe(response.body['@id'])
      expect(response.body.reference).toBe(reference)
    }
  })

  it('refuses any other content type with 415 and creates nothing', async () => {
    const before = await count('layouts')
    for (const contentType of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/merge-patch+json',
      'application/xml',
      'application/jsonx',
    ]) {
      const response = await server.post('/_api/_/layouts', { reference: unique('415') }, { token: admin, contentType })
      expectHydraError(response, 415)
    }
    const noType = await server.request('POST', '/_api/_/layouts', undefined, {
      token: admin,
      headers: { 'content-type': '' },
    })
    expect(noType.status).toBeGreaterThanOrEqual(400)
    expect(noType.status).toBeLessThan(500)
    expect(await count('layouts')).toBe(before)
  })
})

describe('PATCH', () => {
  it('needs application/merge-patch+json: anything else is 415 and changes nothing', async () => {
    const page = await createPage({ title: 'Original' })
    for (const contentType of [
      'application/json',
      'application/ld+json',
      'text/plain',
      'application/json-patch+json',
    ]) {
      const response = await server.patch(page['@id'], { title: 'Changed' }, { token: admin, contentType })
      expectHydraError(response, 415)
    }
    const read = await server.get(page['@id'])
    expect(read.body.title).toBe('Original')
    const ok = await server.patch(
      page['@id'],
      { title: 'Changed' },
      { token: admin, contentType: 'application/merge-patch+json; charset=utf-8' },
    )
    expect(ok.status).toBe(200)
    expect(ok.body.title).toBe('Changed')
  })

  it('merges: unsent properties keep their values, sent ones change', async () => {
    const page = await createPage({
      title: 'T',
      metaDescription: 'M',
      uiComponent: 'PageUi',
      uiClassNames: ['a', 'b'],
      isTemplate: true,
    })
    const response = await server.patch(page['@id'], { title: 'T2' }, { token: admin })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    expect(response.body).toMatchObject({
      '@id': page['@id'],
      title: 'T2',
      metaDescription: 'M',
      uiComponent: 'PageUi',
      uiClassNames: ['a', 'b'],
      isTemplate: true,
      reference: page.reference,
      layout: layoutIri,
    })
    const stored = (await server.payload.findByID({ collection: 'pages', id: page.id, depth: 0 })) as Record<
      string,
      any
    >
    expect(stored.title).toBe('T2')
    expect(stored.metaDescription).toBe('M')
    expect(stored.uiClassNames).toEqual(['a', 'b'])
    expect(stored.isTemplate).toBe(true)
  })

  it('null clears a property (scalar, list and relation)', async () => {
    const parent = await createPage()
    const page = await createPage({ title: 'T', uiComponent: 'X', uiClassNames: ['a'], parentPage: parent['@id'] })
    expect(page.parentPage).toBe(parent['@id'])
    const response = await server.patch(
      page['@id'],
      { title: null, uiComponent: null, uiClassNames: null, parentPage: null },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      title: null,
      uiComponent: null,
      uiClassNames: [],
      parentPage: null,
      reference: page.reference,
    })
    const stored = (await server.payload.findByID({ collection: 'pages', id: page.id, depth: 0 })) as Record<
      string,
      any
    >
    expect(stored.title ?? null).toBeNull()
    expect(stored.uiComponent ?? null).toBeNull()
    expect(stored.parentPage ?? null).toBeNull()
    expect(stored.uiClassNames ?? []).toEqual([])
  })

  it('an empty object changes nothing', async () => {
    const page = await createPage({ title: 'Keep' })
    const response = await server.patch(page['@id'], {}, { token: admin })
    expect(response.status).toBe(200)
    expect(response.body.title).toBe('Keep')
  })

  it('a null on a required property is a 422 and the stored value stays', async () => {
    const page = await createPage()
    const response = await server.patch(page['@id'], { reference: null, layout: null }, { token: admin })
    expectViolations(response, [{ propertyPath: 'reference' }])
    const read = await server.get(page['@id'])
    expect(read.body.reference).toBe(page.reference)
    expect(read.body.layout).toBe(layoutIri)
  })

  it('of an unknown item is a 404', async () => {
    expectHydraError(await server.patch(`/_api/_/pages/${UNKNOWN_UUID}`, { title: 'x' }, { token: admin }), 404)
  })
})

describe('DELETE', () => {
  it('answers 204 with no body, then the item is 404 everywhere', async () => {
    const page = await createPage()
    const before = await count('pages')
    const response = await server.delete(page['@id'], { token: admin })
    expect(response.status).toBe(204)
    expect(response.text).toBe('')
    expect(await count('pages')).toBe(before - 1)
    expectHydraError(await server.get(page['@id']), 404)
    expectHydraError(await server.delete(page['@id'], { token: admin }), 404)
    expectHydraError(await server.patch(page['@id'], { title: 'x' }, { token: admin }), 404)
  })

  it('of a component', async () => {
    const created = await server.post('/_api/component/titles', { title: 'Bye' }, { token: admin })
    expect(created.status).toBe(201)
    expect((await server.delete(created.body['@id'], { token: admin })).status).toBe(204)
    expectHydraError(await server.get(created.body['@id']), 404)
  })
})

describe('relations as IRIs', () => {
  it('accepts an IRI with the prefix, without it, absolute, and upper-case; always returns the canonical IRI', async () => {
    const forms = [
      layoutIri,
      `/_/layouts/${layoutId}`,
      `http://localhost:3000/_api/_/layouts/${layoutId}`,
      `${server.url}/_api/_/layouts/${layoutId}`,
      `/_api/_/layouts/${layoutId.toUpperCase()}`,
      `${layoutIri}/`,
    ]
    for (const layout of forms) {
      const page = await createPage({ layout })
      expect(page.layout).toBe(layoutIri)
      const stored = (await server.payload.findByID({ collection: 'pages', id: page.id, depth: 0 })) as Record<
        string,
        any
      >
      expect(stored.layout).toBe(layoutId)
    }
  })

  it('writes hasMany and polymorphic relations', async () => {
    const g1 = await server.post('/_api/_/component_groups', { reference: unique('g') }, { token: admin })
    const g2 = await server.post('/_api/_/component_groups', { reference: unique('g') }, { token: admin })
    const page = await createPage({ componentGroups: [g1.body['@id'], `/_/component_groups/${g2.body.id}`] })
    expect(page.componentGroups).toEqual([g1.body['@id'], g2.body['@id']])

    const html = await server.post('/_api/component/html_contents', { html: '<p>x</p>' }, { token: admin })
    expect(html.status).toBe(201)
    const position = await server.post(
      '/_api/_/component_positions',
      { componentGroup: g1.body['@id'], component: `/component/html_contents/${html.body.id}`, sortValue: 2 },
      { token: admin },
    )
    expect(position.status).toBe(201)
    expect(position.body.component).toBe(html.body['@id'])
    expect(position.body.componentGroup).toBe(g1.body['@id'])
    expect(position.body.sortValue).toBe(2)
  })

  it('an IRI of the wrong type is a 422 on that property, nothing written', async () => {
    const group = await server.post('/_api/_/component_groups', { reference: unique('g') }, { token: admin })
    const before = await count('pages')
    const response = await server.post(
      '/_api/_/pages',
      { reference: unique('p'), layout: group.body['@id'] },
      { token: admin },
    )
    expectViolations(response, [{ propertyPath: 'layout', code: 'invalid_iri_type' }])
    const position = await server.post(
      '/_api/_/component_positions',
      { componentGroup: group.body['@id'], component: layoutIri },
      { token: admin },
    )
    expectViolations(position, [{ propertyPath: 'component', code: 'invalid_iri_type' }])
    expect(await count('pages')).toBe(before)
  })

  it('an IRI of nothing (unknown uuid) is a 422 on that property, nothing written', async () => {
    const before = await count('pages')
    const response = await server.post(
      '/_api/_/pages',
      { reference: unique('p'), layout: `/_api/_/layouts/${UNKNOWN_UUID}` },
      { token: admin },
    )
    expectViolations(response, [{ propertyPath: 'layout', code: 'not_found' }])
    expect(await count('pages')).toBe(before)
    const page = await createPage()
    const patch = await server.patch(page['@id'], { parentPage: `/_api/_/pages/${UNKNOWN_UUID}` }, { token: admin })
    expectViolations(patch, [{ propertyPath: 'parentPage', code: 'not_found' }])
    expect((await server.get(page['@id'])).body.parentPage).toBeNull()
  })

  it('garbage, a collection IRI or an unknown path is a 422 on that property', async () => {
    for (const layout of [
      'not an iri',
      '/_api/_/layouts',
      '/_api/_/layouts/not-a-uuid',
      '/_api/nowhere/' + layoutId,
      '',
      '../../etc/passwd',
    ]) {
      const response = await server.post('/_api/_/pages', { reference: unique('p'), layout }, { token: admin })
      expectViolations(response, [{ propertyPath: 'layout' }])
    }
  })

  it('a bad element of a list is reported with its index', async () => {
    const group = await server.post('/_api/_/component_groups', { reference: unique('g') }, { token: admin })
    const response = await server.post(
      '/_api/_/pages',
      {
        reference: unique('p'),
        layout: layoutIri,
        componentGroups: [group.body['@id'], layoutIri, `/_api/_/component_groups/${UNKNOWN_UUID}`],
      },
      { token: admin },
    )
    expectViolations(response, [{ propertyPath: 'componentGroups[1]', code: 'invalid_iri_type' }])
    const missing = await server.post(
      '/_api/_/pages',
      {
        reference: unique('p'),
        layout: layoutIri,
        componentGroups: [group.body['@id'], `/_api/_/component_groups/${UNKNOWN_UUID}`],
      },
      { token: admin },
    )
    expectViolations(missing, [{ propertyPath: 'componentGroups[1]', code: 'not_found' }])
  })
})

describe('body properties', () => {
  it('ignores unknown properties, JSON-LD keywords, id and computed fields', async () => {
    const reference = unique('ignored')
    // Sent raw: "__proto__" must travel as an own key of the JSON object.
    const raw = JSON.stringify({
      reference,
      nope: 1,
      '@type': 'Page',
      '@id': '/_api/_/layouts/' + UNKNOWN_UUID,
      '@context': 'x',
      id: UNKNOWN_UUID,
      createdAt: '1999-01-01T00:00:00.000Z',
      constructor: 'x',
    }).replace(/^\{/, '{"__proto__": {"polluted": true}, ')
    const response = await server.post('/_api/_/layouts', undefined, { token: admin, raw })
    expect(response.status).toBe(201)
    expect(response.body['@type']).toBe('Layout')
    expect(response.body.reference).toBe(reference)
    expect(response.body.id).not.toBe(UNKNOWN_UUID)
    expect(response.body).not.toHaveProperty('nope')
    expect(response.body).not.toHaveProperty('polluted')
    expect(response.body.createdAt).not.toBe('1999-01-01T00:00:00.000Z')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('ignores read-only properties (url of a navigation link)', async () => {
    const response = await server.post(
      '/_api/component/navigation_links',
      { label: 'L', rawPath: '/x', url: '/forged' },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body.url).toBe('/x')
    expect(response.body.componentPositions).toEqual([])
  })

  it('refuses componentPositions on a component POST when a position names nothing (422, nothing created; issue 15 places the component)', async () => {
    const response = await server.post(
      '/_api/component/navigation_links',
      { label: 'L', rawPath: '/x', componentPositions: ['/_api/_/component_positions/' + UNKNOWN_UUID] },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(response.body.violations[0].propertyPath).toBe('componentPositions[0]')
  })

  it('wrong-typed values are a 422 listing every violation, nothing written', async () => {
    const before = await count('pages')
    const response = await server.post(
      '/_api/_/pages',
      {
        reference: 5,
        title: true,
        isTemplate: 'true',
        layout: { '@id': layoutIri },
        uiClassNames: 'a',
        componentGroups: 'x',
      },
      { token: admin },
    )
    expectViolations(response, [
      { propertyPath: 'reference', code: 'type' },
      { propertyPath: 'title', code: 'type' },
      { propertyPath: 'isTemplate', code: 'type' },
      { propertyPath: 'layout', code: 'type' },
      { propertyPath: 'uiClassNames', code: 'type' },
      { propertyPath: 'componentGroups', code: 'type' },
    ])
    expect(response.body.violations).toHaveLength(6)
    expect(await count('pages')).toBe(before)
  })

  it('a number must be a number; a list element must be of the list type (null included)', async () => {
    const group = await server.post('/_api/_/component_groups', { reference: unique('g') }, { token: admin })
    expectViolations(
      await server.post(
        '/_api/_/component_positions',
        { componentGroup: group.body['@id'], sortValue: '5' },
        { token: admin },
      ),
      [{ propertyPath: 'sortValue', code: 'type' }],
    )
    expectViolations(
      await server.post('/_api/_/layouts', { reference: unique('l'), uiClassNames: ['a', 7] }, { token: admin }),
      [{ propertyPath: 'uiClassNames[1]', code: 'type' }],
    )
    expectViolations(
      await server.post('/_api/_/layouts', { reference: unique('l'), uiClassNames: ['a', null] }, { token: admin }),
      [{ propertyPath: 'uiClassNames[1]' }],
    )
    expectViolations(
      await server.post('/_api/_/layouts', { reference: unique('l'), componentGroups: [null] }, { token: admin }),
      [{ propertyPath: 'componentGroups[0]' }],
    )
  })

  it('wrong types on PATCH are a 422 and the item is unchanged', async () => {
    const page = await createPage({ title: 'Stay' })
    const response = await server.patch(page['@id'], { title: 12, isTemplate: 0 }, { token: admin })
    expectViolations(response, [
      { propertyPath: 'title', code: 'type' },
      { propertyPath: 'isTemplate', code: 'type' },
    ])
    expect((await server.get(page['@id'])).body.title).toBe('Stay')
  })

  it('required properties missing are a 422 per property', async () => {
    const target = await createPage()
    const before = await count('pages')
    expectViolations(await server.post('/_api/_/pages', {}, { token: admin }), [
      { propertyPath: 'reference', code: 'required' },
      { propertyPath: 'layout', code: 'required' },
    ])
    expectViolations(await server.post('/_api/component/titles', {}, { token: admin }), [
      { propertyPath: 'title', code: 'required' },
    ])
    expectViolations(await server.post('/_api/page_data/blog_article_datas', {}, { token: admin }), [
      { propertyPath: 'title', code: 'required' },
      { propertyPath: 'page', code: 'required' },
    ])
    expectViolations(await server.post('/_api/_/routes', { page: target['@id'] }, { token: admin }), [
      { propertyPath: 'path' },
    ])
    expect(await count('pages')).toBe(before)
  })
})

describe('unique constraints are 422, never 500', () => {
  it('Layout.reference on POST and PATCH', async () => {
    const reference = unique('dup')
    expect((await server.post('/_api/_/layouts', { reference }, { token: admin })).status).toBe(201)
    const before = await count('layouts')
    expectViolations(await server.post('/_api/_/layouts', { reference }, { token: admin }), [
      { propertyPath: 'reference', code: 'unique' },
    ])
    expect(await count('layouts')).toBe(before)
    const other = await server.post('/_api/_/layouts', { reference: unique('other') }, { token: admin })
    expectViolations(await server.patch(other.body['@id'], { reference }, { token: admin }), [
      { propertyPath: 'reference', code: 'unique' },
    ])
    expect((await server.get(other.body['@id'])).body.reference).toBe(other.body.reference)
  })

  it('Route.path', async () => {
    const page = await createPage()
    const path = `/${unique('route')}`
    expect((await server.post('/_api/_/routes', { path, page: page['@id'] }, { token: admin })).status).toBe(201)
    const before = await count('routes')
    const other = await createPage() // a page has one route: the duplicate path goes to another page
    expectViolations(await server.post('/_api/_/routes', { path, page: other['@id'] }, { token: admin }), [
      { propertyPath: 'path', code: 'unique' },
    ])
    expect(await count('routes')).toBe(before)
  })

  it('ComponentGroup.reference and Page.reference', async () => {
    const reference = unique('gdup')
    expect((await server.post('/_api/_/component_groups', { reference }, { token: admin })).status).toBe(201)
    expectViolations(await server.post('/_api/_/component_groups', { reference }, { token: admin }), [
      { propertyPath: 'reference', code: 'unique' },
    ])
    const page = await createPage()
    expectViolations(
      await server.post('/_api/_/pages', { reference: page.reference, layout: layoutIri }, { token: admin }),
      [{ propertyPath: 'reference', code: 'unique' }],
    )
  })

  it('User username on POST; emailAddress on PATCH, reported under the JSON property name', async () => {
    await server.createUser('taken_user')
    const before = await count('users')
    const byName = await server.post(
      '/_api/users',
      { username: 'taken_user', emailAddress: `${unique('u')}@example.com`, plainPassword: 'a long password' },
      { token: superAdmin },
    )
    expectViolations(byName, [{ propertyPath: 'username' }])
    const byEmail = await server.post(
      '/_api/users',
      { username: unique('u'), emailAddress: 'taken_user@example.com', plainPassword: 'a long password' },
      { token: superAdmin },
    )
    expect(byEmail.status).toBe(422)
    expect(await count('users')).toBe(before)

    const other = await server.createUser(unique('other').replace(/-/g, '_'))
    const patch = await server.patch(
      `/_api/users/${other}`,
      { emailAddress: 'taken_user@example.com' },
      { token: superAdmin },
    )
    expectViolations(patch, [{ propertyPath: 'emailAddress' }])
    const invalid = await server.patch(`/_api/users/${other}`, { emailAddress: 'not an email' }, { token: superAdmin })
    expectViolations(invalid, [{ propertyPath: 'emailAddress' }])
    for (const response of [patch, invalid]) {
      expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).not.toContain('email')
    }
    const stored = (await server.payload.findByID({ collection: 'users', id: other, depth: 0 })) as Record<string, any>
    expect(stored.email).not.toBe('taken_user@example.com')
  })
})

describe('body syntax and size', () => {
  const malformed = [
    '{',
    '{"reference": }',
    "{'reference': 'x'}",
    '{"reference": "x"} trailing',
    '{"reference": "x",}',
    'undefined',
    'NaN',
    '\u0000',
    '{"a":1',
  ]

  it('malformed JSON is a 400 on POST and PATCH, nothing written', async () => {
    const page = await createPage({ title: 'Untouched' })
    const before = await count('pages')
    for (const raw of malformed) {
      expectHydraError(await server.post('/_api/_/pages', undefined, { token: admin, raw }), 400)
      expectHydraError(await server.patch(page['@id'], undefined, { token: admin, raw }), 400)
    }
    expect(await count('pages')).toBe(before)
    expect((await server.get(page['@id'])).body.title).toBe('Untouched')
  })

  it('a body that is not an object (array, string, number, null, boolean, empty) is a 400', async () => {
    const page = await createPage({ title: 'Untouched' })
    const before = await count('pages')
    for (const raw of ['[]', '[{"reference":"x"}]', '"a string"', '42', 'null', 'true', '', '   ']) {
      const post = await server.post('/_api/_/pages', undefined, { token: admin, raw })
      expectHydraError(post, 400)
      const patch = await server.patch(page['@id'], undefined, { token: admin, raw })
      expectHydraError(patch, 400)
    }
    expect(await count('pages')).toBe(before)
    expect((await server.get(page['@id'])).body.title).toBe('Untouched')
  })

  it('an oversized body is a 413, nothing written', async () => {
    const before = await count('layouts')
    const raw = JSON.stringify({ reference: unique('big'), uiComponent: 'x'.repeat(22 * 1024 * 1024) })
    expectHydraError(await server.post('/_api/_/layouts', undefined, { token: admin, raw }), 413)
    const layout = await server.post('/_api/_/layouts', { reference: unique('big2') }, { token: admin })
    expectHydraError(await server.patch(layout.body['@id'], undefined, { token: admin, raw }), 413)
    expect(await count('layouts')).toBe(before + 1)
    expect((await server.get(layout.body['@id'])).body.uiComponent).toBeNull()
  })

  it('a body of a few megabytes (a data URI upload) is accepted', async () => {
    const html = `<p>${'x'.repeat(3 * 1024 * 1024)}</p>`
    const response = await server.post('/_api/component/html_contents', { html }, { token: admin })
    expect(response.status).toBe(201)
    expect(response.body.html).toHaveLength(html.length)
  })

  it('a text longer than the text limit is a 422 on that property', async () => {
    const before = await count('layouts')
    const response = await server.post(
      '/_api/_/layouts',
      { reference: unique('long'), uiComponent: 'x'.repeat(40_001) },
      { token: admin },
    )
    expectViolations(response, [{ propertyPath: 'uiComponent' }])
    expect(await count('layouts')).toBe(before)
  })
})

describe('error bodies', () => {
  it('every error status is JSON-LD (401, 403, 404, 405, 415, 400, 413, 422)', async () => {
    const user = await server.tokenFor('ROLE_USER')
    expectHydraError(await server.post('/_api/_/layouts', { reference: 'x' }), 401)
    expectHydraError(await server.post('/_api/_/layouts', { reference: 'x' }, { token: user }), 403)
    expectHydraError(await server.get(`/_api/_/layouts/${UNKNOWN_UUID}`), 404)
    expectHydraError(await server.get('/_api/no/such/path'), 404)
    const put = await server.request('PUT', layoutIri, { reference: 'x' }, { token: admin })
    expectHydraError(put, 405)
    expect(put.headers.get('allow')).toBe('GET, PATCH, DELETE')
    expectHydraError(await server.post('/_api/_/layouts', undefined, { token: admin, raw: '{' }), 400)
    const violation = await server.post('/_api/_/layouts', { reference: 1 }, { token: admin })
    expectViolations(violation, [{ propertyPath: 'reference' }])
    expect(violation.body['@id']).toMatch(/^\/_api\/validation_errors\//)
    expect(violation.body.detail).toContain('reference')
  })

  it('never leaks internals in a 4xx detail', async () => {
    const response = await server.post('/_api/_/layouts', { reference: 'a\u0000b' }, { token: admin })
    expect(response.status).toBe(422)
    expect(response.text).not.toMatch(/Failed query|insert into|stack|node_modules/i)
  })
})
