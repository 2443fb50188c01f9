/**
 * The publish state machine on Payload's own APIs: REST (what the admin panel
 * sends) and the Local API called as an editor (`user`, `overrideAccess:
 * false`). Every transition the JSON-LD API has, with the same outcomes,
 * read back from the database and from the JSON-LD API; plus what Payload's
 * APIs add: bulk updates
 * take the same transitions, and calls that override access (seed, fixtures,
 * jobs) write what they are told.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'
import { firstReadAfter } from '../support/wait'

let server: TestServer
let admin: string
let template: string
let adminUser: Record<string, unknown>

const PAST = '2020-01-02T03:04:05.000Z'
const future = (ms = 3_600_000) => new Date(Date.now() + ms).toISOString()
const idOf = (iri: string) => iri.split('/').pop()!

interface Kind {
  shortName: string
  slug: string
  jsonLd: string
  table: string
  column: string
  body(value: string | null): Record<string, unknown>
}

const KINDS: Kind[] = [
  {
    shortName: 'HtmlContent',
    slug: 'html_contents',
    jsonLd: '/_api/component/html_contents',
    table: '_acb_html_contents',
    column: 'html',
    body: (v) => ({ html: v }),
  },
  {
    shortName: 'NewsArticleData',
    slug: 'news_article_datas',
    jsonLd: '/_api/page_data/news_article_datas',
    table: '_acb_news_article_datas',
    column: 'summary',
    body: (v) => ({ title: 'news', page: idOf(template), summary: v }),
  },
]

/** Payload's REST API signed in as the editor (the JSON-LD session cookie, which Payload accepts as the admin panel's). */
function rest(
  method: string,
  path: string,
  body?: Record<string, unknown>,
  token: string | null = admin,
): Promise<TestResponse> {
  return server.request(method, path, body, {
    contentType: 'application/json',
    headers: { accept: 'application/json', ...(token ? { cookie: `api_component=${encodeURIComponent(token)}` } : {}) },
  })
}

function ok(response: TestResponse, status = 200): Record<string, any> {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`)
  return (response.body.doc ?? response.body) as Record<string, any>
}

async function family(kind: Kind, rootId: string) {
  const rows = await server.sql(
    `SELECT id, published_at, published_resource_id, ${kind.column} AS content FROM ${kind.table} WHERE id = $1 OR published_resource_id = $1 ORDER BY created_at`,
    [rootId],
  )
  return {
    live: rows.find((r) => r.id === rootId) ?? null,
    drafts: rows.filter((r) => r.published_resource_id === rootId),
  }
}

async function restDraft(kind: Kind, content: string | null): Promise<Record<string, any>> {
  return ok(await rest('POST', `/api/${kind.slug}`, kind.body(content)), 201)
}

async function restLive(kind: Kind, content: string): Promise<Record<string, any>> {
  return ok(await rest('POST', `/api/${kind.slug}`, { ...kind.body(content), publishedAt: PAST }), 201)
}

/** What the JSON-LD API serves at the record's IRI, anonymously or to the editor. */
async function jsonLd(kind: Kind, id: string, token?: string) {
  const response = await server.get(`${kind.jsonLd}/${id}`, token ? { token } : {})
  return {
    status: response.status,
    content: response.body?.[kind.column] as string | undefined,
    iri: response.body?.['@id'] as string | undefined,
  }
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  adminUser = (await server.get('/_api/me', { token: admin })).body
  const layout = (await server.post('/_api/_/layouts', { reference: 'l' }, { token: admin })).body['@id']
  template = (await server.post('/_api/_/pages', { reference: 't', layout, isTemplate: true }, { token: admin })).body[
    '@id'
  ]
})
afterAll(async () => {
  await server?.close()
})

describe.each(KINDS)("$shortName on Payload's REST API, as an editor with the publish permission", (kind) => {
  it('POST without publishedAt: an unpublished draft, hidden from anonymous callers on every API', async () => {
    const draft = await restDraft(kind, 'first')
    expect(draft.publishedAt ?? null).toBeNull()
    expect((await rest('GET', `/api/${kind.slug}/${draft.id}`, undefined, null)).status).toBe(404)
    expect((await jsonLd(kind, draft.id)).status).toBe(404)
    expect((await jsonLd(kind, draft.id, admin)).content).toBe('first')
  })

  it('POST with a date while the publish group fails: 400 naming the property, nothing written', async () => {
    const before = (await server.sql(`SELECT count(*)::int AS n FROM ${kind.table}`))[0].n
    const response = await rest('POST', `/api/${kind.slug}`, { ...kind.body(null), publishedAt: PAST })
    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body.errors)).toContain(kind.column)
    const scheduled = await rest('POST', `/api/${kind.slug}`, { ...kind.body(''), publishedAt: future() })
    expect(scheduled.status).toBe(400)
    expect((await server.sql(`SELECT count(*)::int AS n FROM ${kind.table}`))[0].n).toBe(before)
  })

  it('draft → PATCH publishedAt now: published in place, served anonymously', async () => {
    const draft = await restDraft(kind, 'ready')
    const now = new Date().toISOString()
    const doc = ok(await rest('PATCH', `/api/${kind.slug}/${draft.id}`, { publishedAt: now }))
    expect(doc.id).toBe(draft.id)
    expect(await jsonLd(kind, draft.id)).toMatchObject({ status: 200, content: 'ready' })
  })

  it('draft → PATCH publishedAt while the publish group fails: 400, still a draft', async () => {
    const draft = await restDraft(kind, null)
    const response = await rest('PATCH', `/api/${kind.slug}/${draft.id}`, { publishedAt: new Date().toISOString() })
    expect(response.status).toBe(400)
    expect(JSON.stringify(response.body.errors)).toContain(kind.column)
    expect((await family(kind, draft.id)).live).toMatchObject({ published_at: null })
  })

  it('draft → PATCH a future publishedAt: scheduled, hidden until then', async () => {
    const draft = await restDraft(kind, 'later')
    const at = future()
    const doc = ok(await rest('PATCH', `/api/${kind.slug}/${draft.id}`, { publishedAt: at }))
    expect(new Date(doc.publishedAt).toISOString()).toBe(at)
    expect((await jsonLd(kind, draft.id)).status).toBe(404)
  })

  it('live → PATCH a change: its draft is created, then updated; the live record and what anonymous callers get stay the same', async () => {
    const live = await restLive(kind, 'live v1')
    const first = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'pending 1' }))
    // The answer is the draft the editor now edits.
    expect(first.id).not.toBe(live.id)
    expect(first[kind.column]).toBe('pending 1')
    expect(String(first.publishedResource?.id ?? first.publishedResource)).toBe(live.id)
    const second = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'pending 2' }))
    expect(second.id).toBe(first.id)
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'live v1' })
    expect(rows.live!.published_at.toISOString()).toBe(PAST)
    expect(rows.drafts).toHaveLength(1)
    expect(rows.drafts[0]).toMatchObject({ id: first.id, content: 'pending 2', published_at: null })
    // Anonymous callers: the live version on every API, never the draft.
    expect(ok(await rest('GET', `/api/${kind.slug}/${live.id}`, undefined, null))[kind.column]).toBe('live v1')
    expect((await rest('GET', `/api/${kind.slug}/${first.id}`, undefined, null)).status).toBe(404)
    const listed = ok(await rest('GET', `/api/${kind.slug}?limit=500&depth=0`, undefined, null)).docs as Array<
      Record<string, unknown>
    >
    expect(listed.map((d) => d.id)).toContain(live.id)
    expect(listed.map((d) => d.id)).not.toContain(first.id)
    expect(listed.map((d) => d[kind.column])).not.toContain('pending 2')
    expect(await jsonLd(kind, live.id)).toMatchObject({ status: 200, content: 'live v1' })
    // The editor, on the JSON-LD API: the draft.
    expect(await jsonLd(kind, live.id, admin)).toMatchObject({ content: 'pending 2' })
  })

  it('live → PATCH with a past publishedAt: the date is ignored, the change goes to the draft', async () => {
    const live = await restLive(kind, 'live')
    const doc = ok(
      await rest('PATCH', `/api/${kind.slug}/${live.id}`, {
        [kind.column]: 'edit',
        publishedAt: new Date().toISOString(),
      }),
    )
    expect(doc.id).not.toBe(live.id)
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'live' })
    expect(rows.drafts).toEqual([expect.objectContaining({ content: 'edit', published_at: null })])
  })

  it('live → PATCH publishedAt null: a change like any other (contract): the draft takes it, the record stays live (no unpublish by PATCH)', async () => {
    const live = await restLive(kind, 'stays live')
    const response = await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'x', publishedAt: null })
    expect(response.status).toBe(200)
    expect(response.body.doc.id).not.toBe(live.id)
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'stays live' })
    expect(rows.live!.published_at).not.toBeNull()
    expect(rows.drafts).toEqual([expect.objectContaining({ content: 'x', published_at: null })])
    expect(await jsonLd(kind, live.id)).toMatchObject({ status: 200, content: 'stays live' })
  })

  it('draft with a twin → PATCH publishedAt now: the twin takes the content and keeps its id, the draft goes', async () => {
    const live = await restLive(kind, 'old')
    const draft = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'new' }))
    const doc = ok(await rest('PATCH', `/api/${kind.slug}/${draft.id}`, { publishedAt: new Date().toISOString() }))
    expect(doc.id).toBe(live.id)
    expect(doc[kind.column]).toBe('new')
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'new' })
    expect(rows.drafts).toHaveLength(0)
    expect((await server.sql(`SELECT 1 FROM ${kind.table} WHERE id = $1`, [draft.id])).length).toBe(0)
    expect(await jsonLd(kind, live.id)).toMatchObject({ status: 200, content: 'new' })
  })

  it('draft with a twin → PATCH a future publishedAt: scheduled; it replaces the live version once due', async () => {
    const live = await restLive(kind, 'before')
    const draft = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'after' }))
    const at = future(4000)
    ok(await rest('PATCH', `/api/${kind.slug}/${draft.id}`, { publishedAt: at }))
    // Every read answered before the moment serves the live version; the first one sent after it, the new one.
    let readsBefore = 0
    const after = await firstReadAfter(
      new Date(at),
      () => jsonLd(kind, live.id),
      (before) => {
        readsBefore++
        expect(before).toMatchObject({ content: 'before' })
      },
    )
    expect(readsBefore).toBeGreaterThan(0)
    expect(after).toMatchObject({ status: 200, content: 'after' })
    expect((await family(kind, live.id)).drafts).toHaveLength(0)
  })

  it('DELETE of the live record: its draft stays and holds the pending content', async () => {
    const live = await restLive(kind, 'going')
    const draft = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'staying' }))
    ok(await rest('DELETE', `/api/${kind.slug}/${live.id}`))
    const rows = await server.sql(
      `SELECT id, published_resource_id, ${kind.column} AS content FROM ${kind.table} WHERE id = $1`,
      [draft.id],
    )
    expect(rows).toEqual([{ id: draft.id, published_resource_id: null, content: 'staying' }])
  })

  it("duplicate (the admin's Duplicate) of a live record: the copy is an unpublished draft of its own, hidden from anonymous callers; the original is untouched", async () => {
    const live = await restLive(kind, 'to copy')
    const copy = ok(await rest('POST', `/api/${kind.slug}/${live.id}/duplicate`, {}))
    expect(copy.id).not.toBe(live.id)
    expect(await family(kind, copy.id)).toEqual({
      live: expect.objectContaining({ published_at: null, published_resource_id: null, content: 'to copy' }),
      drafts: [],
    })
    expect((await jsonLd(kind, copy.id)).status).toBe(404)
    expect(await jsonLd(kind, copy.id, admin)).toMatchObject({ status: 200, content: 'to copy' })
    expect(await family(kind, live.id)).toMatchObject({
      live: { published_at: expect.anything(), content: 'to copy' },
      drafts: [],
    })
  })

  it('duplicate of a draft with a twin: the copy is a draft of its own, never a second draft of the same twin', async () => {
    const live = await restLive(kind, 'twin live')
    const draft = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { [kind.column]: 'twin pending' }))
    const copy = ok(await rest('POST', `/api/${kind.slug}/${draft.id}/duplicate`, {}))
    expect(await family(kind, copy.id)).toEqual({
      live: expect.objectContaining({ published_at: null, published_resource_id: null, content: 'twin pending' }),
      drafts: [],
    })
    expect((await family(kind, live.id)).drafts.map((d) => d.id)).toEqual([draft.id])
  })

  it('bulk PATCH (?where=): each matching live record gets a draft, none changes in place', async () => {
    const a = await restLive(kind, 'bulk a')
    const b = await restLive(kind, 'bulk b')
    const response = await rest('PATCH', `/api/${kind.slug}?where[id][in]=${a.id},${b.id}`, {
      [kind.column]: 'bulk edit',
    })
    expect(response.status).toBe(200)
    for (const live of [a, b]) {
      const rows = await family(kind, live.id)
      expect(rows.live!.content).toMatch(/^bulk [ab]$/)
      expect(rows.drafts).toEqual([expect.objectContaining({ content: 'bulk edit' })])
    }
  })
})

describe('the Local API', () => {
  const kind = KINDS[0]!

  it('as an editor (user, overrideAccess: false): the same transitions as REST', async () => {
    const live = await restLive(kind, 'local live')
    const user = { ...adminUser, collection: 'users' }
    const doc = (await server.payload.update({
      collection: kind.slug as never,
      id: live.id,
      data: { html: 'local edit' } as never,
      user: user as never,
      overrideAccess: false,
      depth: 0,
    })) as unknown as Record<string, unknown>
    expect(doc.id).not.toBe(live.id)
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'local live' })
    expect(rows.drafts).toEqual([expect.objectContaining({ id: doc.id, content: 'local edit' })])
    // Clearing the date is a change for the draft too; the live record stays.
    await server.payload.update({
      collection: kind.slug as never,
      id: live.id,
      data: { publishedAt: null } as never,
      user: user as never,
      overrideAccess: false,
    })
    expect((await family(kind, live.id)).live!.published_at).not.toBeNull()
  })

  it('overriding access (the seed, fixtures, jobs): writes what it is told, in place', async () => {
    const live = await restLive(kind, 'system live')
    await server.payload.update({
      collection: kind.slug as never,
      id: live.id,
      data: { html: 'system edit' } as never,
      depth: 0,
    })
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'system edit' })
    expect(rows.drafts).toHaveLength(0)
  })
})

describe('concurrency on REST', () => {
  const kind = KINDS[0]!

  it('two concurrent edits of one live record: one draft holding one of them', async () => {
    const live = await restLive(kind, 'c live')
    const answers = await Promise.all(
      ['c1', 'c2'].map((v) => rest('PATCH', `/api/${kind.slug}/${live.id}`, { html: v })),
    )
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'c live' })
    expect(rows.drafts).toHaveLength(1)
    expect(['c1', 'c2']).toContain(rows.drafts[0].content)
  })

  it('two concurrent publications of one draft with a twin: published once, no draft left, no 500', async () => {
    const live = await restLive(kind, 'p live')
    const draft = ok(await rest('PATCH', `/api/${kind.slug}/${live.id}`, { html: 'p new' }))
    const now = new Date().toISOString()
    const answers = await Promise.all(
      [1, 2].map(() => rest('PATCH', `/api/${kind.slug}/${draft.id}`, { publishedAt: now })),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([200, 404])
    const rows = await family(kind, live.id)
    expect(rows.live).toMatchObject({ content: 'p new' })
    expect(rows.drafts).toHaveLength(0)
  })
})
