/**
 * POST {prefix}/_/publish {"iris": [...]} (issue 4, beyond the contract):
 * publishes many drafts in one transaction, all or nothing, with one round
 * of events after the commit. Callers without the publish permission are
 * refused before the body is looked at.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { onWriteEvent, type WriteEvent } from 'payload-cwa'
import { recordWriteEvents as recordPublishEvents, summary } from '../support/writeEvents'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'
import { postFixture } from '../support/fixtures'

let server: TestServer
let admin: string
let user: string
let template: string
let layout: string
let group: string
const events = recordPublishEvents()

const PAST = '2020-01-02T03:04:05.000Z'
const HTML = '/_api/component/html_contents'
const NEWS = '/_api/page_data/news_article_datas'
const UNKNOWN = '0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e'

const sql = (s: TestServer, text: string, params: unknown[] = []) => s.sql(text, params)

const post = async (path: string, body: Record<string, unknown>): Promise<string> =>
  (await postFixture(server, path, body, admin))['@id']

/** A set of drafts of both kinds: a fresh draft, a scheduled one, drafts of published twins. */
async function drafts() {
  const html = await post(HTML, { html: 'fresh' })
  const scheduled = await post(HTML, { html: 'scheduled', publishedAt: new Date(Date.now() + 3600_000).toISOString() })
  const live = await post(HTML, { html: 'live', publishedAt: PAST })
  const twin = (await server.patch(live, { html: 'pending' }, { token: admin })).body['@id'] as string
  const news = await post(NEWS, { title: 'n', page: template, summary: 'news fresh' })
  const liveNews = await post(NEWS, { title: 'n2', page: template, summary: 'news live', publishedAt: PAST })
  const newsTwin = (await server.patch(liveNews, { summary: 'news pending' }, { token: admin })).body['@id'] as string
  events.length = 0
  return { html, scheduled, live, twin, news, liveNews, newsTwin }
}

/** Snapshot of both tables, to prove a refused request changed nothing. */
async function snapshot(s: TestServer = server) {
  const html = await sql(s, 'SELECT id, html, published_at, published_resource_id FROM _acb_html_contents ORDER BY id')
  const news = await sql(
    s,
    'SELECT id, summary, published_at, published_resource_id FROM _acb_news_article_datas ORDER BY id',
  )
  const positions = await sql(
    s,
    'SELECT parent_id, _acb_html_contents_id FROM _acb_component_positions_rels ORDER BY id',
  )
  return JSON.stringify({ html, news, positions })
}

function expectRefused(response: TestResponse, status: number) {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
  layout = await post('/_api/_/layouts', { reference: 'l' })
  template = await post('/_api/_/pages', { reference: 't', layout, isTemplate: true })
  group = await post('/_api/_/component_groups', { reference: 'g', location: 'main' })
})
afterAll(async () => {
  await server?.close()
})

describe('POST /_api/_/publish', () => {
  it('publishes several drafts of several types in one request; twins receive the content, positions follow', async () => {
    const d = await drafts()
    const position = await post('/_api/_/component_positions', { componentGroup: group, component: d.twin })
    events.length = 0
    const response = await server.post(
      '/_api/_/publish',
      { iris: [d.html, d.scheduled, d.twin, d.news, d.newsTwin] },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    expect(response.body.published.map((m: any) => m['@id'])).toEqual([d.html, d.scheduled, d.live, d.news, d.liveNews])
    for (const member of response.body.published) expect(member._metadata.publishable.published).toBe(true)

    for (const [iri, field, content] of [
      [d.html, 'html', 'fresh'],
      [d.scheduled, 'html', 'scheduled'],
      [d.live, 'html', 'pending'],
      [d.news, 'summary', 'news fresh'],
      [d.liveNews, 'summary', 'news pending'],
    ] as const) {
      const read = await server.get(iri)
      expect({ iri, status: read.status, content: read.body[field] }).toEqual({ iri, status: 200, content })
    }
    for (const gone of [d.twin, d.newsTwin]) expect((await server.get(gone, { token: admin })).status).toBe(404)
    expect((await server.get(position)).body.component).toBe(d.live)

    // One event per changed record, in one batch: the publications, the drafts merged into their twins, the moved position.
    expect(summary(events)).toEqual(
      [
        `publish ${d.html}`,
        `publish ${d.scheduled}`,
        `publish ${d.live}`,
        `delete ${d.twin}`,
        `publish ${d.news}`,
        `publish ${d.liveNews}`,
        `delete ${d.newsTwin}`,
        `update ${position}`,
      ].sort(),
    )
    expect(new Set(events.map((e) => e.batch)).size).toBe(1)
  })

  it('accepts IRIs with or without the API prefix, and the same draft twice (published once)', async () => {
    const a = await post(HTML, { html: 'a' })
    const b = await post(HTML, { html: 'b' })
    const response = await server.post('/_api/_/publish', { iris: [a, a.replace(/^\/_api/, ''), b] }, { token: admin })
    expect(response.status).toBe(200)
    expect(response.body.published).toHaveLength(2)
    expect(events.filter((e) => e.type === 'publish')).toHaveLength(2)
    expect((await server.get(a)).status).toBe(200)
    expect((await server.get(b)).status).toBe(200)
  })

  describe('all or nothing: one bad entry and nothing is published, no event is sent', () => {
    const bad: Array<[string, (d: Awaited<ReturnType<typeof drafts>>) => Promise<string> | string, number, string]> = [
      ['a published record (not a draft)', (d) => d.live, 422, 'iris[3]'],
      ['an unknown id of a publishable type', () => `${HTML}/${UNKNOWN}`, 422, 'iris[3]'],
      [
        'a record of a type that is not publishable',
        () => post('/_api/component/titles', { title: 'x' }),
        422,
        'iris[3]',
      ],
      [
        'a page (a core resource)',
        () => post('/_api/_/pages', { reference: `p-${Date.now()}`, layout }),
        422,
        'iris[3]',
      ],
      ['a collection IRI', () => HTML, 422, 'iris[3]'],
      ['something that is no IRI', () => 'not an iri', 422, 'iris[3]'],
      ['a draft failing the publish validation group', () => post(HTML, { html: null }), 422, 'iris[3].html'],
    ]

    it.each(bad)('%s as the last entry', async (_label, make, status, propertyPath) => {
      const d = await drafts()
      const iri = await make(d)
      const before = await snapshot()
      events.length = 0
      const response = await server.post('/_api/_/publish', { iris: [d.html, d.twin, d.news, iri] }, { token: admin })
      expectRefused(response, status)
      expect(response.body['@type']).toBe('ConstraintViolation')
      expect(response.body.violations.map((v: any) => v.propertyPath)).toContain(propertyPath)
      expect(await snapshot()).toBe(before)
      expect(events).toEqual([])
      expect((await server.get(d.html)).status).toBe(404)
      expect((await server.get(d.live)).body.html).toBe('live')
    })

    it('a bad entry first is refused the same way', async () => {
      const d = await drafts()
      const before = await snapshot()
      const response = await server.post('/_api/_/publish', { iris: [d.live, d.html] }, { token: admin })
      expectRefused(response, 422)
      expect(await snapshot()).toBe(before)
    })

    it('a draft published in the same request through its twin cannot be published twice', async () => {
      const d = await drafts()
      const before = await snapshot()
      // The twin's published record is not a draft.
      const response = await server.post('/_api/_/publish', { iris: [d.twin, d.live] }, { token: admin })
      expectRefused(response, 422)
      expect(await snapshot()).toBe(before)
      expect(events).toEqual([])
    })

    it.each([
      ['no body', undefined],
      ['no iris', {}],
      ['an empty list', { iris: [] }],
      ['a string', { iris: 'x' }],
      ['a list holding a number', { iris: [1] }],
    ])('%s: 422', async (_label, body) => {
      const response = await server.post('/_api/_/publish', body, { token: admin })
      expectRefused(response, 422)
    })
  })

  describe('callers without the publish permission', () => {
    it('anonymous: 401; a signed-in user: 403; nothing published', async () => {
      const d = await drafts()
      const before = await snapshot()
      expectRefused(await server.post('/_api/_/publish', { iris: [d.html] }), 401)
      expectRefused(await server.post('/_api/_/publish', { iris: [d.html] }, { token: user }), 403)
      // Refused before the body is read: a bad body gets the same answer.
      expectRefused(await server.post('/_api/_/publish', { iris: ['nonsense'] }, { token: user }), 403)
      expectRefused(await server.post('/_api/_/publish', { iris: ['nonsense'] }), 401)
      expect(await snapshot()).toBe(before)
      expect(events).toEqual([])
    })

    it('an admin who may write but does not match the permission: 403, nothing published', async () => {
      const other = await startTestServer({ options: { publishable: { permission: 'ROLE_SUPER_ADMIN' } } })
      try {
        const writer = await other.tokenFor('ROLE_ADMIN')
        const publisher = await other.tokenFor('ROLE_SUPER_ADMIN')
        const draft = await other.post(HTML, { html: 'secret' }, { token: publisher })
        expect(draft.status).toBe(201)
        const before = await snapshot(other)
        const response = await other.post('/_api/_/publish', { iris: [draft.body['@id']] }, { token: writer })
        expectRefused(response, 403)
        expect(await snapshot(other)).toBe(before)
        expect((await other.get(draft.body['@id'])).status).toBe(404)
        // The publisher may.
        expect((await other.post('/_api/_/publish', { iris: [draft.body['@id']] }, { token: publisher })).status).toBe(
          200,
        )
        expect((await other.get(draft.body['@id'])).status).toBe(200)
      } finally {
        await other.close()
      }
    })
  })

  it('refuses a body its declared input does not accept before anything is published (422 on iris, 400 past 200)', async () => {
    for (const body of [{}, { iris: [] }, { iris: [3] }]) {
      const refused = await server.post('/_api/_/publish', body, { token: admin })
      expect(refused.status).toBe(422)
      expect(refused.body.violations).toEqual([
        expect.objectContaining({ propertyPath: 'iris', message: 'A non-empty list of draft IRIs is required.' }),
      ])
    }
    const tooMany = await server.post('/_api/_/publish', { iris: Array(201).fill('/_api/x') }, { token: admin })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.detail).toBe('At most 200 IRIs at once.')
  })
})

describe('write events of single transitions', () => {
  it('one per changed record and transition, after the commit', async () => {
    const seen: Array<{ event: WriteEvent; committed: number }> = []
    const stop = onWriteEvent(async (committed) => {
      for (const event of committed) {
        if (event.collection !== 'html_contents') continue
        // The transition is visible to another connection when the listener runs: it has committed.
        const rows = await sql(server, 'SELECT count(*)::int AS n FROM _acb_html_contents WHERE id = $1', [event.id])
        seen.push({ event, committed: rows[0].n })
      }
    })
    try {
      const live = await post(HTML, { html: 'v1', publishedAt: PAST })
      const draft = (await server.patch(live, { html: 'v2' }, { token: admin })).body['@id']
      await server.patch(draft, { html: 'v3' }, { token: admin })
      await server.patch(draft, { publishedAt: PAST }, { token: admin })
      await server.delete(live, { token: admin })
      expect(seen.map(({ event }) => [event.type, event.iri])).toEqual([
        ['publish', live],
        ['create', draft],
        ['update', draft],
        ['delete', draft],
        ['publish', live],
        ['delete', live],
      ])
      expect(seen.map((s) => s.committed)).toEqual([1, 1, 1, 0, 1, 0])
    } finally {
      stop()
    }
  })
})
