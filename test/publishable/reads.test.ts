/**
 * Read routing of publishable resources (service contract, "States and
 * transitions > Publishable component or page data", read routing table,
 * "Publishable fields" for _metadata): a matrix of callers (anonymous, a
 * signed-in user without the permission, an admin matching it) over every
 * read path: item, collection under each filter/order/page parameter,
 * ?published=, positions in a page, page data properties, Payload's own REST
 * API. Every draft here holds the marker "DRAFT" in its content: callers
 * without the permission must never receive it, nor a draft's IRI as a
 * resource.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { postFixture } from '../support/fixtures'

let server: TestServer
let admin: string
let user: string
let layout: string
let template: string
let groupIri: string

const PAST = '2020-01-02T03:04:05.000Z'
const FUTURE = new Date(Date.now() + 7 * 24 * 3600_000).toISOString()
const MARK = 'DRAFT'

const sql = (text: string, params: unknown[] = []) => server.sql(text, params)

const post = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, admin)

async function patch(iri: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await server.patch(iri, body, { token: admin })
  if (response.status !== 200) throw new Error(`PATCH ${iri}: ${response.status} ${response.text}`)
  return response.body
}

interface Fixture {
  /** published, no draft */
  P1: string
  /** published, with draft D2 */
  P2: string
  D2: string
  /** draft never published */
  D3: string
  /** scheduled (future) draft without twin */
  S4: string
  /** published with a scheduled draft D5 */
  P5: string
  D5: string
  /** draft missing the property required to publish */
  D6: string
}

interface Kind {
  shortName: string
  path: string
  required: string
  body(value: string | null, title: string): Record<string, unknown>
  /** Collection query strings to try, beyond the generic ones. */
  queries: string[]
  f: Fixture
}

const kinds: Kind[] = [
  {
    shortName: 'HtmlContent',
    path: '/_api/component/html_contents',
    required: 'html',
    body: (value) => ({ html: value }),
    queries: [],
    f: {} as Fixture,
  },
  {
    shortName: 'NewsArticleData',
    path: '/_api/page_data/news_article_datas',
    required: 'summary',
    body: (value, title) => ({ title, page: template, summary: value }),
    queries: [
      '?search=DRAFT',
      '?search=draft',
      '?search=two',
      '?search=a',
      '?order[title]=asc',
      '?order[title]=desc',
      '?order[createdAt]=asc',
      '?order[title]=asc&page=2&itemsPerPage=2',
      '?search=o&order[title]=desc&itemsPerPage=1&page=3',
    ],
    f: {} as Fixture,
  },
]

/** Generic collection parameters: paging, ?published=, and parameters that are no filters (must not widen anything). */
const GENERIC = [
  '',
  '?page=1',
  '?page=2',
  '?itemsPerPage=1',
  '?itemsPerPage=1&page=2',
  '?itemsPerPage=1&page=3',
  '?itemsPerPage=1&page=4',
  '?itemsPerPage=2&page=2',
  '?itemsPerPage=100',
  '?published=false',
  '?published=0',
  '?published=true',
  '?published=maybe',
  '?publishedAt=',
  '?publishedAt[exists]=false',
  '?publishedResource[exists]=true',
  '?where[publishedAt][exists]=false',
  '?id=x',
]

async function build(kind: Kind): Promise<void> {
  const make = (value: string | null, title: string, extra: Record<string, unknown> = {}) =>
    post(kind.path, { ...kind.body(value, title), ...extra })
  const P1 = await make('pub one', 'alpha one', { publishedAt: PAST })
  const P2 = await make('pub two', 'bravo two', { publishedAt: PAST })
  const D2 = await patch(P2['@id'], { [kind.required]: `${MARK} two` })
  const D3 = await make(`${MARK} only`, 'charlie draft')
  const S4 = await make(`${MARK} scheduled`, 'delta scheduled', { publishedAt: FUTURE })
  const P5 = await make('pub five', 'echo five', { publishedAt: PAST })
  const D5 = await patch(P5['@id'], { [kind.required]: `${MARK} five`, publishedAt: FUTURE })
  const D6 = await make(null, 'foxtrot empty')
  kind.f = {
    P1: P1['@id'],
    P2: P2['@id'],
    D2: D2['@id'],
    D3: D3['@id'],
    S4: S4['@id'],
    P5: P5['@id'],
    D5: D5['@id'],
    D6: D6['@id'],
  }
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
  layout = (await post('/_api/_/layouts', { reference: 'layout' }))['@id']
  template = (await post('/_api/_/pages', { reference: 'template', title: 'Template', layout, isTemplate: true }))[
    '@id'
  ]
  groupIri = (await post('/_api/_/component_groups', { reference: 'main', location: 'main' }))['@id']
  for (const kind of kinds) await build(kind)
})
afterAll(async () => {
  await server?.close()
})

const draftsOf = (f: Fixture) => [f.D2, f.D3, f.S4, f.D5, f.D6]
const NON_PERMITTED: Array<[string, () => string | undefined]> = [
  ['anonymous', () => undefined],
  ['a signed-in user without the permission', () => user],
]

/** Whether a response leaks a draft: its marker, or any draft id. */
function expectNoLeak(text: string, f: Fixture) {
  expect(text).not.toContain(MARK)
  for (const iri of draftsOf(f)) expect(text).not.toContain(iri.split('/').pop()!)
}

describe.each(kinds)('$shortName item reads', (kind) => {
  describe.each(NON_PERMITTED)('%s', (_label, token) => {
    it('receives the published version, never the draft', async () => {
      const { f } = kind
      for (const query of ['', '?published=true', '?published=false', '?published=0', '?published=1']) {
        for (const iri of [f.P1, f.P2, f.P5]) {
          const response = await server.get(`${iri}${query}`, { token: token() })
          expect(response.status).toBe(200)
          expect(response.body['@id']).toBe(iri)
          expect(response.body[kind.required]).toMatch(/^pub /)
          expect(response.body.draftResource).toBeNull()
          expect(response.body.publishedResource).toBeNull()
          expectNoLeak(response.text, f)
        }
      }
    })

    it('gets 404 for a draft IRI (with or without a twin, scheduled or not) under any ?published=', async () => {
      for (const query of ['', '?published=true', '?published=false']) {
        for (const iri of draftsOf(kind.f)) {
          const response = await server.get(`${iri}${query}`, { token: token() })
          expect({ iri, query, status: response.status }).toEqual({ iri, query, status: 404 })
          expectNoLeak(response.text, kind.f)
        }
      }
    })

    it('_metadata.publishable is given, _metadata.violations is not', async () => {
      const response = await server.get(kind.f.P2, { token: token() })
      expect(response.body._metadata.publishable).toEqual({
        published: true,
        publishedAt: PAST,
        locationCount: kind.shortName === 'HtmlContent' ? 0 : null,
      })
      expect(response.body._metadata).not.toHaveProperty('violations')
    })
  })

  describe('a caller matching the publish permission', () => {
    const get = (iri: string) => server.get(iri, { token: admin })

    it('receives the draft when one exists, else the published version', async () => {
      const { f } = kind
      const cases: Array<[string, string, string | RegExp]> = [
        [f.P1, f.P1, 'pub one'],
        [f.P2, f.D2, `${MARK} two`],
        [f.D2, f.D2, `${MARK} two`],
        [f.D3, f.D3, `${MARK} only`],
        [f.S4, f.S4, `${MARK} scheduled`],
        [f.P5, f.D5, `${MARK} five`],
        [f.D5, f.D5, `${MARK} five`],
      ]
      for (const [iri, served, content] of cases) {
        const response = await get(iri)
        expect({ iri, status: response.status, served: response.body['@id'] }).toEqual({ iri, status: 200, served })
        expect(response.body[kind.required]).toBe(content)
      }
    })

    it('?published=true gives the published version explicitly (from the draft IRI too); 404 when never published', async () => {
      const { f } = kind
      for (const [iri, served] of [
        [f.P1, f.P1],
        [f.P2, f.P2],
        [f.D2, f.P2],
        [f.P5, f.P5],
        [f.D5, f.P5],
      ]) {
        const response = await get(`${iri}?published=true`)
        expect({ iri, served: response.body['@id'] }).toEqual({ iri, served })
        expect(response.body[kind.required]).toMatch(/^pub /)
      }
      const twin = await get(`${f.P2}?published=true`)
      expect(twin.body.draftResource).toBe(f.D2)
      for (const iri of [f.D3, f.S4, f.D6]) expect((await get(`${iri}?published=true`)).status).toBe(404)
    })

    it('?published=false gives the draft', async () => {
      const { f } = kind
      for (const [iri, served] of [
        [f.P2, f.D2],
        [f.D2, f.D2],
        [f.P5, f.D5],
        [f.D3, f.D3],
      ]) {
        const response = await get(`${iri}?published=false`)
        expect({ iri, served: response.body['@id'] }).toEqual({ iri, served })
        expect(response.body[kind.required]).toMatch(new RegExp(`^${MARK}`))
      }
    })

    it('_metadata.publishable: a draft reports published false even with a twin; its own publishedAt; violations listed', async () => {
      const { f } = kind
      const draft = await get(f.P2)
      expect(draft.body._metadata.publishable).toEqual({
        published: false,
        publishedAt: null,
        locationCount: kind.shortName === 'HtmlContent' ? 0 : null,
      })
      expect(draft.body.publishedResource).toBe(f.P2)
      expect(draft.body._metadata.violations).toEqual([])
      const scheduled = await get(f.D5)
      expect(scheduled.body._metadata.publishable).toMatchObject({ published: false, publishedAt: FUTURE })
      const published = await get(`${f.P2}?published=true`)
      expect(published.body._metadata.publishable).toMatchObject({ published: true, publishedAt: PAST })
      const empty = await get(f.D6)
      expect(empty.body._metadata.violations).toEqual([
        expect.objectContaining({
          propertyPath: kind.required,
          code: `${kind.shortName}:published`,
          message: expect.any(String),
        }),
      ])
    })
  })
})

describe.each(kinds)('$shortName collections', (kind) => {
  const all = () => [...GENERIC, ...kind.queries]

  describe.each(NON_PERMITTED)('%s', (_label, token) => {
    it('never lists a draft, under any filter, order, page or ?published= parameter', async () => {
      const published = [kind.f.P1, kind.f.P2, kind.f.P5]
      for (const query of all()) {
        const response = await server.get(`${kind.path}${query}`, { token: token() })
        expect({ query, status: response.status }).toEqual({ query, status: 200 })
        // The view echoes the query (which may hold the marker): the members are what must not leak.
        expectNoLeak(JSON.stringify(response.body.member), kind.f)
        for (const member of response.body.member) expect(published).toContain(member['@id'])
        expect(response.body.totalItems).toBeLessThanOrEqual(published.length)
      }
    })

    it('lists each published record exactly once across all pages, and counts only them', async () => {
      const seen: string[] = []
      for (let page = 1; page <= 5; page++) {
        const response = await server.get(`${kind.path}?itemsPerPage=1&page=${page}`, { token: token() })
        expect(response.body.totalItems).toBe(3)
        seen.push(...response.body.member.map((m: any) => m['@id']))
      }
      expect(seen.sort()).toEqual([kind.f.P1, kind.f.P2, kind.f.P5].sort())
    })
  })

  describe('a caller matching the publish permission', () => {
    it('lists each family once: the draft where there is one, else the published record', async () => {
      const { f } = kind
      const response = await server.get(`${kind.path}?itemsPerPage=100`, { token: admin })
      const ids = response.body.member.map((m: any) => m['@id']).sort()
      expect(ids).toEqual([f.P1, f.D2, f.D3, f.S4, f.D5, f.D6].sort())
      expect(response.body.totalItems).toBe(6)
      const seen: string[] = []
      for (let page = 1; page <= 6; page++) {
        const paged = await server.get(`${kind.path}?itemsPerPage=1&page=${page}`, { token: admin })
        expect(paged.body.totalItems).toBe(6)
        seen.push(...paged.body.member.map((m: any) => m['@id']))
      }
      expect(seen.sort()).toEqual(ids)
    })

    it('?published=true lists the published versions only; ?published=false the drafts only', async () => {
      const { f } = kind
      const published = await server.get(`${kind.path}?published=true`, { token: admin })
      expect(published.body.member.map((m: any) => m['@id']).sort()).toEqual([f.P1, f.P2, f.P5].sort())
      expect(published.text).not.toContain(MARK)
      const drafts = await server.get(`${kind.path}?published=false`, { token: admin })
      expect(drafts.body.member.map((m: any) => m['@id']).sort()).toEqual(draftsOf(f).sort())
    })

    it('members carry _metadata.publishable and _metadata.violations', async () => {
      const response = await server.get(`${kind.path}?itemsPerPage=100`, { token: admin })
      const byId = new Map(response.body.member.map((m: any) => [m['@id'], m]))
      expect((byId.get(kind.f.D2) as any)._metadata.publishable.published).toBe(false)
      expect((byId.get(kind.f.P1) as any)._metadata.publishable.published).toBe(true)
      expect((byId.get(kind.f.D6) as any)._metadata.violations).toHaveLength(1)
      const anonymous = await server.get(kind.path)
      for (const member of anonymous.body.member) {
        expect(member._metadata.publishable.published).toBe(true)
        expect(member._metadata).not.toHaveProperty('violations')
      }
    })
  })
})

describe('HtmlContent in pages and page data', () => {
  const kind = kinds[0]!

  it('locationCount counts positions and page data holders, the same for every caller', async () => {
    const html = await post(kind.path, { html: 'placed', publishedAt: PAST })
    for (let i = 0; i < 2; i++)
      await post('/_api/_/component_positions', { componentGroup: groupIri, component: html['@id'], sortValue: i })
    await post('/_api/page_data/blog_article_datas', { title: 'holder', page: template, htmlContent: html['@id'] })
    for (const token of [undefined, user, admin]) {
      const read = await server.get(html['@id'], { token })
      expect(read.body._metadata.publishable.locationCount).toBe(3)
    }
    const list = await server.get(`${kind.path}?itemsPerPage=100`)
    expect(list.body.member.find((m: any) => m['@id'] === html['@id'])._metadata.publishable.locationCount).toBe(3)
    // The write's response counts too (its positions are not loaded by the write itself).
    const patched = await server.patch(html['@id'], { html: 'placed, edited' }, { token: admin })
    expect(patched.body['@id']).not.toBe(html['@id'])
    const created = await server.post(kind.path, { html: 'new' }, { token: admin })
    expect(created.body._metadata.publishable.locationCount).toBe(0)
  })

  it('a page: its positions name components; following them never gives a draft to the public', async () => {
    const group = await post('/_api/_/component_groups', { reference: 'page-group', location: 'main' })
    const page = await post('/_api/_/pages', {
      reference: 'page',
      title: 'Page',
      layout,
      componentGroups: [group['@id']],
    })
    await post('/_api/_/routes', { path: '/the-page', page: page['@id'] })
    for (const [i, component] of [kind.f.P1, kind.f.P2, kind.f.D3].entries()) {
      await post('/_api/_/component_positions', { componentGroup: group['@id'], component, sortValue: i })
    }
    for (const token of [undefined, user]) {
      const positions = (await server.get(`${group['@id']}`, { token })).body.componentPositions as string[]
      expect(positions).toHaveLength(3)
      for (const positionIri of positions) {
        const position = await server.get(positionIri, { token })
        const component = await server.get(position.body.component, { token })
        if (position.body.component === kind.f.D3) expect(component.status).toBe(404)
        else expect(component.body.html).toMatch(/^pub /)
        expectNoLeak(component.text, kind.f)
      }
    }
    // The admin following the same positions reaches the drafts.
    const viaAdmin = await server.get(kind.f.P2, { token: admin })
    expect(viaAdmin.body.html).toBe(`${MARK} two`)
  })

  it('a page data property and a dynamic position resolve to a component the public may read only when published', async () => {
    const live = await post('/_api/page_data/blog_article_datas', {
      title: 'live holder',
      page: template,
      htmlContent: kind.f.P2,
    })
    const drafty = await post('/_api/page_data/blog_article_datas', {
      title: 'draft holder',
      page: template,
      htmlContent: kind.f.D3,
    })
    const dynamic = await post('/_api/_/component_positions', {
      componentGroup: groupIri,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
    for (const token of [undefined, user]) {
      const a = await server.get(dynamic['@id'], { token, headers: { path: live['@id'] } })
      expect(a.body.component).toBe(kind.f.P2)
      const aComponent = await server.get(a.body.component, { token })
      expect(aComponent.body.html).toBe('pub two')
      const b = await server.get(dynamic['@id'], { token, headers: { path: drafty['@id'] } })
      expect((await server.get(b.body.component, { token })).status).toBe(404)
      const holder = await server.get(live['@id'], { token })
      expect((await server.get(holder.body.htmlContent, { token })).body.html).toBe('pub two')
    }
    const asAdmin = await server.get(kind.f.P2, { token: admin })
    expect(asAdmin.body.html).toBe(`${MARK} two`)
  })
})

describe("Payload's own REST API and admin reads", () => {
  it('never gives a draft to callers without the permission', async () => {
    const { f } = kinds[0]!
    const list = await server.get('/api/html_contents?limit=100&depth=0')
    expect(list.status).toBe(200)
    expect(list.text).not.toContain(MARK)
    const ids = list.body.docs.map((d: any) => d.id)
    for (const iri of [f.P1, f.P2, f.P5]) expect(ids).toContain(iri.split('/').pop())
    for (const iri of draftsOf(f)) expect(ids).not.toContain(iri.split('/').pop())
    const filtered = await server.get('/api/html_contents?where[publishedAt][exists]=false&limit=100')
    expect(filtered.text).not.toContain(MARK)
    const item = await server.get(`/api/html_contents/${f.D3.split('/').pop()}`)
    expect([403, 404]).toContain(item.status)
    expect(item.text).not.toContain(MARK)
  })
})

describe('cost of draft routing', () => {
  it('reading with draft routing costs at most one query more than a plain read', async () => {
    const { f } = kinds[1]! // page data: no location count to load
    // A plain read: page data of a type that is not publishable (same base fields).
    const plainData = await post('/_api/page_data/blog_article_datas', { title: 'plain', page: template })
    const plain = await server.countQueries(() => server.get(plainData['@id']))
    expect(plain.result.status).toBe(200)
    const anonymous = await server.countQueries(() => server.get(f.P1))
    expect(anonymous.result.status).toBe(200)
    // Signed-in reads never use the read model, so they are read twice and the lesser count kept (fewestQueries).
    const withDraft = await server.fewestQueries(() => server.get(f.P2, { token: admin }))
    expect(withDraft.result.body['@id']).toBe(f.D2)
    const published = await server.fewestQueries(() => server.get(`${f.P2}?published=true`, { token: admin }))
    // A signed-in reader (admin) costs one query more anyway: the session check (enabled state and token version).
    const SESSION_CHECK = 1
    // Payload's path: the read model's statements (a lookup an anonymous read may skip, a store landing a few
    // milliseconds after an earlier answer) are not draft routing's.
    const onPath = (counted: { sql: string[] }) => counted.sql.filter((text) => !text.includes('_read_model')).length
    expect(onPath(anonymous)).toBeLessThanOrEqual(onPath(plain) + 1)
    expect(onPath(withDraft)).toBeLessThanOrEqual(onPath(plain) + 1 + SESSION_CHECK)
    expect(onPath(published)).toBeLessThanOrEqual(onPath(plain) + 1 + SESSION_CHECK)
    // A collection: one query for all twins, whatever the page size.
    const plainList = await server.countQueries(() => server.get('/_api/page_data/blog_article_datas?itemsPerPage=100'))
    const list = await server.fewestQueries(() => server.get(`${kinds[1]!.path}?itemsPerPage=100`, { token: admin }))
    expect(onPath(list)).toBeLessThanOrEqual(onPath(plainList) + 1 + SESSION_CHECK)
  })

  it('reads changed none of the fixtures (reads never write unless a scheduled date has come)', async () => {
    for (const kind of kinds) {
      const table = kind.shortName === 'HtmlContent' ? '_acb_html_contents' : '_acb_news_article_datas'
      const id = (iri: string) => iri.split('/').pop()
      const rows = await sql(`SELECT id, published_resource_id FROM ${table} WHERE id = ANY($1::uuid[])`, [
        [kind.f.D2, kind.f.D5, kind.f.D3, kind.f.S4].map(id),
      ])
      const twins = Object.fromEntries(rows.map((r) => [r.id, r.published_resource_id]))
      expect(twins).toEqual({
        [id(kind.f.D2)!]: id(kind.f.P2),
        [id(kind.f.D5)!]: id(kind.f.P5),
        [id(kind.f.D3)!]: null,
        [id(kind.f.S4)!]: null,
      })
    }
  })
})
