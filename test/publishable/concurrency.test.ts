/**
 * Publishing and draft creation are transactions serialised per family (the
 * published record and its draft): concurrent requests against the real
 * database must end with exactly one published record and at most one draft.
 * Requests are fired together over real HTTP; rows are counted in the
 * database afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { recordWriteEvents as recordPublishEvents } from '../support/writeEvents'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'

let server: TestServer
let admin: string
let template: string
const events = recordPublishEvents()

const PAST = '2020-01-02T03:04:05.000Z'
const ROUNDS = 4
const idOf = (iri: string) => iri.split('/').pop()!

const sql = (text: string, params: unknown[] = []) => server.sql(text, params)

interface Kind {
  shortName: string
  path: string
  table: string
  column: string
  body(value: string): Record<string, unknown>
}

const KINDS: Kind[] = [
  {
    shortName: 'HtmlContent',
    path: '/_api/component/html_contents',
    table: '_acb_html_contents',
    column: 'html',
    body: (v) => ({ html: v }),
  },
  {
    shortName: 'NewsArticleData',
    path: '/_api/page_data/news_article_datas',
    table: '_acb_news_article_datas',
    column: 'summary',
    body: (v) => ({ title: 'news', page: template, summary: v }),
  },
]

/** The rows of one family: the record `rootIri` and every record pointing at it. */
async function family(kind: Kind, rootIri: string) {
  const rows = await sql(
    `SELECT id, published_at, published_resource_id, ${kind.column} AS content FROM ${kind.table} WHERE id = $1 OR published_resource_id = $1`,
    [idOf(rootIri)],
  )
  const published = rows.filter(
    (r) => r.published_at !== null && r.published_resource_id === null && r.published_at <= new Date(),
  )
  const drafts = rows.filter((r) => r.published_resource_id !== null || r.published_at === null)
  return { rows, published, drafts }
}

async function published(kind: Kind, content: string): Promise<string> {
  const response = await server.post(kind.path, { ...kind.body(content), publishedAt: PAST }, { token: admin })
  if (response.status !== 201) throw new Error(response.text)
  return response.body['@id']
}

async function draftOf(kind: Kind, publishedIri: string, content: string): Promise<string> {
  const response = await server.patch(publishedIri, { [kind.column]: content }, { token: admin })
  if (response.status !== 200) throw new Error(response.text)
  return response.body['@id']
}

const statuses = (responses: TestResponse[]) => responses.map((r) => r.status).sort()

beforeAll(async () => {
  // Moments are moved into the past with plain SQL (no write event): read them on every request, as
  // scheduleRecheck: 0 does (the kept publication moments are tested in test/core/publicationMoment.test.ts).
  server = await startTestServer({ options: { scheduleRecheck: 0 } })
  admin = await server.tokenFor('ROLE_ADMIN')
  const layout = (await server.post('/_api/_/layouts', { reference: 'l' }, { token: admin })).body['@id']
  template = (await server.post('/_api/_/pages', { reference: 't', layout, isTemplate: true }, { token: admin })).body[
    '@id'
  ]
})
afterAll(async () => {
  await server?.close()
})

describe.each(KINDS)('$shortName', (kind) => {
  it('two PATCHes publishing the same draft with a twin at once: one publication, no draft left', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const live = await published(kind, `live ${round}`)
      const draft = await draftOf(kind, live, `pending ${round}`)
      events.length = 0
      const responses = await Promise.all([
        server.patch(draft, { publishedAt: new Date().toISOString() }, { token: admin }),
        server.patch(draft, { publishedAt: new Date().toISOString() }, { token: admin }),
      ])
      // The first publishes; the second finds the draft gone (404), never a 500 or a duplicate.
      expect(statuses(responses)).toEqual([200, 404])
      const winner = responses.find((r) => r.status === 200)!
      expect(winner.body['@id']).toBe(live)
      const { rows, published: live2, drafts } = await family(kind, live)
      expect(rows).toHaveLength(1)
      expect(live2).toHaveLength(1)
      expect(drafts).toHaveLength(0)
      expect(live2[0].content).toBe(`pending ${round}`)
      expect(events.filter((e) => e.type === 'publish')).toHaveLength(1)
    }
  })

  it('two PATCHes publishing the same draft without twin at once: exactly one published, at most one draft', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await server.post(kind.path, kind.body(`fresh ${round}`), { token: admin })
      const draft = created.body['@id']
      events.length = 0
      const responses = await Promise.all([
        server.patch(draft, { publishedAt: PAST }, { token: admin }),
        server.patch(draft, { publishedAt: PAST }, { token: admin }),
      ])
      expect(statuses(responses)).toEqual([200, 200])
      const { published: live, drafts } = await family(kind, draft)
      expect(live).toHaveLength(1)
      expect(live[0].id).toBe(idOf(draft))
      expect(drafts.length).toBeLessThanOrEqual(1)
      expect(events.filter((e) => e.type === 'publish')).toHaveLength(1)
    }
  })

  it('two concurrent edits of one published record: both land in one single draft', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const live = await published(kind, `live ${round}`)
      events.length = 0
      const responses = await Promise.all([
        server.patch(live, { [kind.column]: `edit A ${round}` }, { token: admin }),
        server.patch(live, { [kind.column]: `edit B ${round}` }, { token: admin }),
      ])
      expect(statuses(responses)).toEqual([200, 200])
      expect(responses[0]!.body['@id']).toBe(responses[1]!.body['@id'])
      expect(responses[0]!.body['@id']).not.toBe(live)
      const { published: live2, drafts } = await family(kind, live)
      expect(live2).toHaveLength(1)
      expect(live2[0].content).toBe(`live ${round}`)
      expect(drafts).toHaveLength(1)
      expect([`edit A ${round}`, `edit B ${round}`]).toContain(drafts[0].content)
      expect(events.map((e) => e.type).sort()).toEqual(['create', 'update'])
    }
  })

  it('many concurrent edits and publications of one family: one published, at most one draft, no error', async () => {
    const live = await published(kind, 'start')
    const requests: Array<Promise<TestResponse>> = []
    for (let i = 0; i < 8; i++) {
      requests.push(server.patch(live, { [kind.column]: `edit ${i}` }, { token: admin }))
      if (i % 2 === 1) {
        // Publishing through the published IRI goes to the draft (past publishedAt ignored), never a second record.
        requests.push(server.patch(live, { [kind.column]: `edit ${i}`, publishedAt: PAST }, { token: admin }))
      }
    }
    const responses = await Promise.all(requests)
    for (const response of responses) expect(response.status).toBe(200)
    const { published: live2, drafts } = await family(kind, live)
    expect(live2).toHaveLength(1)
    expect(drafts).toHaveLength(1)
    // Then publishing the draft from several clients at once.
    const draft = `${kind.path}/${drafts[0].id}`
    const publications = await Promise.all(
      [1, 2, 3].map(() => server.patch(draft, { publishedAt: PAST }, { token: admin })),
    )
    expect(publications.filter((r) => r.status === 200)).toHaveLength(1)
    for (const response of publications) expect([200, 404]).toContain(response.status)
    const after = await family(kind, live)
    expect(after.rows).toHaveLength(1)
    expect(after.published).toHaveLength(1)
  })

  it('concurrent reads after a scheduled moment promote the draft once', async () => {
    const live = await published(kind, 'before')
    const draft = await draftOf(kind, live, 'after')
    await server.patch(draft, { publishedAt: new Date(Date.now() + 3600_000).toISOString() }, { token: admin })
    await sql(`UPDATE ${kind.table} SET published_at = now() - interval '1 second' WHERE id = $1`, [idOf(draft)])
    events.length = 0
    const reads = await Promise.all([
      server.get(live),
      server.get(live),
      server.get(live, { token: admin }),
      server.get(kind.path),
      server.get(kind.path, { token: admin }),
      server.get(live),
    ])
    for (const read of reads) expect(read.status).toBe(200)
    for (const read of reads.filter((r) => r.body['@type'] !== 'Collection'))
      expect(read.body[kind.column]).toBe('after')
    const { rows, published: live2 } = await family(kind, live)
    expect(rows).toHaveLength(1)
    expect(live2[0].content).toBe('after')
    expect(events.filter((e) => e.type === 'publish')).toHaveLength(1)
  })

  it('a DELETE ?published=true racing an edit: the draft survives alone, without pointer', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const live = await published(kind, `live ${round}`)
      const draft = await draftOf(kind, live, `pending ${round}`)
      const [removed, edited] = await Promise.all([
        server.delete(`${live}?published=true`, { token: admin }),
        server.patch(draft, { [kind.column]: `edited ${round}` }, { token: admin }),
      ])
      expect(removed.status).toBe(204)
      expect(edited.status).toBe(200)
      const rows = await sql(`SELECT id, published_resource_id FROM ${kind.table} WHERE id = ANY($1::uuid[])`, [
        [idOf(live), idOf(draft)],
      ])
      expect(rows).toEqual([{ id: idOf(draft), published_resource_id: null }])
    }
  })
})

describe('bulk publications racing each other', () => {
  it('two bulk requests naming the same drafts in opposite orders neither deadlock nor publish twice', async () => {
    const kind = KINDS[0]!
    for (let round = 0; round < ROUNDS; round++) {
      const lives = [await published(kind, 'a'), await published(kind, 'b'), await published(kind, 'c')]
      const drafts = [
        await draftOf(kind, lives[0]!, 'A'),
        await draftOf(kind, lives[1]!, 'B'),
        await draftOf(kind, lives[2]!, 'C'),
      ]
      events.length = 0
      const responses = await Promise.all([
        server.post('/_api/_/publish', { iris: drafts }, { token: admin }),
        server.post('/_api/_/publish', { iris: [...drafts].reverse() }, { token: admin }),
      ])
      // One wins; the other finds the drafts gone and publishes nothing.
      expect(statuses(responses)).toEqual([200, 422])
      for (const [index, live] of lives.entries()) {
        const { rows, published: p } = await family(kind, live)
        expect(rows).toHaveLength(1)
        expect(p[0].content).toBe(['A', 'B', 'C'][index])
      }
      expect(events.filter((e) => e.type === 'publish')).toHaveLength(3)
    }
  })
})
