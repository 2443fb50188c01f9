/**
 * No lost update (issue 23): a read's ETag names the version read; a write
 * that sends it back as If-Match is refused with 412 Precondition Failed,
 * saying what changed and when, when the record, or the draft its write is
 * redirected to, changed since. On every write path: PATCH of a live record
 * (redirected to its draft), of a draft, of page data, publishing (a PATCH
 * of publishedAt), on the JSON-LD API and on Payload REST (header, or the
 * admin form's updatedAt). A writer without If-Match is not checked.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { captureLogs } from '../support/logs'
import { PASSWORD, startTestServer, type TestResponse, type TestServer } from '../support/server'

let server: TestServer
let admin: string
let rest: string
let template: string

const PAST = '2020-01-02T03:04:05.000Z'
const idOf = (iri: string) => iri.split('/').pop()!

const KINDS = [
  {
    shortName: 'HtmlContent',
    path: '/_api/component/html_contents',
    rest: '/api/html_contents',
    field: 'html',
    body: (v: string) => ({ html: `<p>${v}</p>` }),
    value: (v: string) => `<p>${v}</p>`,
  },
  {
    shortName: 'NewsArticleData',
    path: '/_api/page_data/news_article_datas',
    rest: '/api/news_article_datas',
    field: 'summary',
    body: (v: string) => ({ title: 'news', page: template, summary: v }),
    value: (v: string) => v,
  },
]
type Kind = (typeof KINDS)[number]

const ifMatch = (etag: string | null) => ({ headers: { 'if-match': etag ?? '' } })

async function live(kind: Kind, text: string): Promise<string> {
  const created = await server.post(kind.path, { ...kind.body(text), publishedAt: PAST }, { token: admin })
  expect(created.status).toBe(201)
  return created.body['@id']
}

/** The 412's body: a Hydra error naming what changed and when. */
function expectConflict(response: TestResponse, changed: 'record' | 'draft' | 'gone') {
  expect(response.status).toBe(412)
  expect(response.body['@type']).toBe('Error')
  expect(response.body.title).toBe('Precondition Failed')
  expect(response.body.conflict.changed).toBe(changed)
  if (changed !== 'gone') {
    expect(Date.parse(response.body.conflict.changedAt)).not.toBeNaN()
    expect(response.body.detail).toContain(response.body.conflict.changedAt)
    expect(response.body.conflict.currentVersion).toMatch(/^v[\w-]{16}$/)
  }
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  await server.createUser('if_match_editor', ['ROLE_ADMIN'])
  const login = await server.request(
    'POST',
    '/api/users/login',
    { username: 'if_match_editor', password: PASSWORD },
    { contentType: 'application/json' },
  )
  expect(login.status).toBe(200)
  rest = login.body.token
  const layout = (await server.post('/_api/_/layouts', { reference: 'if-match-layout' }, { token: admin })).body['@id']
  template = (
    await server.post('/_api/_/pages', { reference: 'if-match-template', layout, isTemplate: true }, { token: admin })
  ).body['@id']
})
afterAll(async () => {
  await server?.close()
})

describe.each(KINDS)('JSON-LD If-Match: $shortName', (kind) => {
  it("a read names its version in the ETag; a PATCH of the live record with it makes the draft, answered with the draft's version", async () => {
    const iri = await live(kind, 'v1')
    const read = await server.get(iri, { token: admin })
    const etag = read.headers.get('etag')
    expect(etag).toMatch(/^W\/"v[\w-]{16}\./)
    const saved = await server.patch(iri, kind.body('v2'), { token: admin, ...ifMatch(etag) })
    expect(saved.status).toBe(200)
    expect(saved.body['@id']).not.toBe(iri) // the draft
    expect(saved.headers.get('etag')).not.toBe(etag)
    // Read again (the draft is served), then written with that version: accepted.
    const again = await server.get(iri, { token: admin })
    expect(
      (await server.patch(iri, kind.body('v3'), { token: admin, ...ifMatch(again.headers.get('etag')) })).status,
    ).toBe(200)
  })

  it('two writers read the live record; the second, redirected to the draft the first made, is refused: 412 naming the draft and when', async () => {
    const iri = await live(kind, 'base')
    const etag = (await server.get(iri, { token: admin })).headers.get('etag')
    expect((await server.patch(iri, kind.body('first'), { token: admin, ...ifMatch(etag) })).status).toBe(200)
    const second = await server.patch(iri, kind.body('second'), { token: admin, ...ifMatch(etag) })
    expectConflict(second, 'draft')
    // The first writer's text is intact.
    expect((await server.get(iri, { token: admin })).body[kind.field]).toBe(kind.value('first'))
  })

  it('the live version read (?published=true) while a draft is pending: a write to the draft is refused', async () => {
    const iri = await live(kind, 'live')
    expect((await server.patch(iri, kind.body('pending'), { token: admin })).status).toBe(200)
    const liveEtag = (await server.get(`${iri}?published=true`, { token: admin })).headers.get('etag')
    expectConflict(await server.patch(iri, kind.body('over'), { token: admin, ...ifMatch(liveEtag) }), 'draft')
    expect((await server.get(iri, { token: admin })).body[kind.field]).toBe(kind.value('pending'))
  })

  it('a PATCH of a draft: refused when the draft changed since the read (412 naming the record), accepted with its current version', async () => {
    const iri = await live(kind, 'a')
    const draft = (await server.patch(iri, kind.body('b'), { token: admin })).body['@id']
    const stale = (await server.get(draft, { token: admin })).headers.get('etag')
    expect((await server.patch(draft, kind.body('c'), { token: admin })).status).toBe(200) // someone else, without If-Match: today's behaviour
    expectConflict(await server.patch(draft, kind.body('d'), { token: admin, ...ifMatch(stale) }), 'record')
    const current = (await server.get(draft, { token: admin })).headers.get('etag')
    expect((await server.patch(draft, kind.body('d'), { token: admin, ...ifMatch(current) })).status).toBe(200)
    // Any current version: `*`; an unknown tag matches nothing.
    expect((await server.patch(draft, kind.body('e'), { token: admin, ...ifMatch('*') })).status).toBe(200)
    expectConflict(await server.patch(draft, kind.body('f'), { token: admin, ...ifMatch('"not-ours"') }), 'record')
  })

  it('publishing (publishedAt now on the draft) with a stale version is refused and publishes nothing; with the current one it publishes', async () => {
    const iri = await live(kind, 'old')
    const draft = (await server.patch(iri, kind.body('new'), { token: admin })).body['@id']
    const stale = (await server.get(draft, { token: admin })).headers.get('etag')
    expect((await server.patch(draft, kind.body('newer'), { token: admin })).status).toBe(200)
    expectConflict(
      await server.patch(draft, { publishedAt: new Date().toISOString() }, { token: admin, ...ifMatch(stale) }),
      'record',
    )
    const liveText = async () => (await server.get(`${iri}?published=true`, { token: admin })).body[kind.field]
    expect(await liveText()).toBe(kind.value('old'))
    const current = (await server.get(draft, { token: admin })).headers.get('etag')
    expect(
      (await server.patch(draft, { publishedAt: new Date().toISOString() }, { token: admin, ...ifMatch(current) }))
        .status,
    ).toBe(200)
    expect(await liveText()).toBe(kind.value('newer'))
    // The draft is gone (handed over to the live record): a write naming its old version says so.
    expectConflict(await server.patch(draft, kind.body('late'), { token: admin, ...ifMatch(current) }), 'gone')
  })
})

describe('JSON-LD If-Match on a type without drafts', () => {
  it('a layout: 412 when it changed since the read; the row is written only with the current version', async () => {
    const created = await server.post('/_api/_/layouts', { reference: 'if-match-plain' }, { token: admin })
    const iri = created.body['@id']
    const stale = (await server.get(iri, { token: admin })).headers.get('etag')
    expect(
      (await server.patch(iri, { reference: 'if-match-plain-2' }, { token: admin, ...ifMatch(stale) })).status,
    ).toBe(200)
    expectConflict(
      await server.patch(iri, { reference: 'if-match-plain-3' }, { token: admin, ...ifMatch(stale) }),
      'record',
    )
    expect((await server.get(iri, { token: admin })).body.reference).toBe('if-match-plain-2')
  })
})

describe.each(KINDS)('Payload REST If-Match: $shortName', (kind) => {
  const restHeaders = (extra: Record<string, string> = {}) => ({
    contentType: 'application/json',
    headers: { authorization: `JWT ${rest}`, ...extra },
  })

  it('a read answers with its version as ETag; a write without If-Match is not checked; a stale If-Match is a 412 with what changed', async () => {
    const id = idOf(await live(kind, 'r1'))
    const read = await server.request('GET', `${kind.rest}/${id}?depth=0`, undefined, restHeaders())
    const etag = read.headers.get('etag')
    expect(etag).toMatch(/^"v[\w-]{16}"$/)
    const first = await server.request(
      'PATCH',
      `${kind.rest}/${id}?depth=0`,
      { [kind.field]: kind.value('r2') },
      restHeaders({ 'if-match': etag! }),
    )
    expect(first.status).toBe(200)
    expect(first.body.doc.id).not.toBe(id) // the draft
    expect(first.headers.get('etag')).toBe(
      `"${(await server.request('GET', `${kind.rest}/${first.body.doc.id}?depth=0`, undefined, restHeaders())).headers.get('etag')!.slice(1, -1)}"`,
    )
    const second = await server.request(
      'PATCH',
      `${kind.rest}/${id}?depth=0`,
      { [kind.field]: kind.value('r3') },
      restHeaders({ 'if-match': etag! }),
    )
    expect(second.status).toBe(412)
    expect(second.body.errors[0].message).toMatch(/draft/)
    expect(second.body.errors[0].data.conflict).toMatchObject({ changed: 'draft', id: first.body.doc.id })
    // Without If-Match: today's behaviour (the draft takes the write).
    expect(
      (await server.request('PATCH', `${kind.rest}/${id}?depth=0`, { [kind.field]: kind.value('r4') }, restHeaders()))
        .status,
    ).toBe(200)
  })

  it('publishing a draft (PATCH publishedAt now) with a stale If-Match is refused and publishes nothing', async () => {
    const id = idOf(await live(kind, 'p1'))
    const draftId = (
      await server.request('PATCH', `${kind.rest}/${id}?depth=0`, { [kind.field]: kind.value('p2') }, restHeaders())
    ).body.doc.id
    const stale = (
      await server.request('GET', `${kind.rest}/${draftId}?depth=0`, undefined, restHeaders())
    ).headers.get('etag')!
    expect(
      (
        await server.request(
          'PATCH',
          `${kind.rest}/${draftId}?depth=0`,
          { [kind.field]: kind.value('p3') },
          restHeaders(),
        )
      ).status,
    ).toBe(200)
    const refused = await server.request(
      'PATCH',
      `${kind.rest}/${draftId}?depth=0`,
      { publishedAt: new Date().toISOString() },
      restHeaders({ 'if-match': stale }),
    )
    expect(refused.status).toBe(412)
    expect(refused.body.errors[0].data.conflict).toMatchObject({ changed: 'record', id: draftId })
    expect((await server.request('GET', `${kind.rest}/${id}?depth=0`, undefined, restHeaders())).body[kind.field]).toBe(
      kind.value('p1'),
    )
    const current = (
      await server.request('GET', `${kind.rest}/${draftId}?depth=0`, undefined, restHeaders())
    ).headers.get('etag')!
    expect(
      (
        await server.request(
          'PATCH',
          `${kind.rest}/${draftId}?depth=0`,
          { publishedAt: new Date().toISOString() },
          restHeaders({ 'if-match': current }),
        )
      ).status,
    ).toBe(200)
    expect((await server.request('GET', `${kind.rest}/${id}?depth=0`, undefined, restHeaders())).body[kind.field]).toBe(
      kind.value('p3'),
    )
  })

  it('the admin form (multipart, the updatedAt it loaded) is checked the same way', async () => {
    const id = idOf(await live(kind, 'f1'))
    const loaded = (await server.request('GET', `${kind.rest}/${id}?depth=0`, undefined, restHeaders())).body
    const form = (data: Record<string, unknown>) => {
      const body = new FormData()
      body.set('_payload', JSON.stringify(data))
      return fetch(`${server.url}${kind.rest}/${id}?depth=0`, {
        method: 'PATCH',
        headers: { authorization: `JWT ${rest}` },
        body,
      })
    }
    const first = await form({ [kind.field]: kind.value('f2'), updatedAt: loaded.updatedAt })
    expect(first.status).toBe(200)
    // A second form loaded at the same time: the draft is someone else's now.
    const second = await form({ [kind.field]: kind.value('f3'), updatedAt: loaded.updatedAt })
    expect(second.status).toBe(412)
    const body = (await second.json()) as any
    expect(body.errors[0].data.errors[0].path).toBe('_cwaConflict')
    expect(body.errors[0].data.conflict.changed).toBe('draft')
    const draftId = ((await first.json()) as any).doc.id
    const draft = (await server.request('GET', `${kind.rest}/${draftId}?depth=0`, undefined, restHeaders())).body
    expect(draft[kind.field]).toBe(kind.value('f2'))
    // The draft's own form, as loaded, saves (twice in a row, each time with the version it got back).
    const onDraft = async (data: Record<string, unknown>) => {
      const body = new FormData()
      body.set('_payload', JSON.stringify(data))
      return fetch(`${server.url}${kind.rest}/${draftId}?depth=0`, {
        method: 'PATCH',
        headers: { authorization: `JWT ${rest}` },
        body,
      })
    }
    const saved = await onDraft({ [kind.field]: kind.value('f4'), updatedAt: draft.updatedAt })
    expect(saved.status).toBe(200)
    const next = ((await saved.json()) as any).doc.updatedAt
    expect((await onDraft({ [kind.field]: kind.value('f5'), updatedAt: next })).status).toBe(200)
    expect((await onDraft({ [kind.field]: kind.value('f6'), updatedAt: draft.updatedAt })).status).toBe(412)
  })
})

describe("log levels of expected refusals (an editor's conflict, a wrong password: no ERROR line, no stack)", () => {
  it('a stale If-Match on Payload REST and JSON-LD, and a failed login, log no error; the conflict is an info line with its message', async () => {
    const kind = KINDS[0]!
    const iri = await live(kind, 'log1')
    const id = idOf(iri)
    const headers = { contentType: 'application/json', headers: { authorization: `JWT ${rest}` } }
    const etag = (await server.request('GET', `${kind.rest}/${id}?depth=0`, undefined, headers)).headers.get('etag')!
    const withEtag = { ...headers, headers: { ...headers.headers, 'if-match': etag } }
    expect((await server.request('PATCH', `${kind.rest}/${id}`, { html: '<p>log2</p>' }, withEtag)).status).toBe(200)
    const errors = captureLogs(server.payload, 'error')
    const infos = captureLogs(server.payload, 'info')
    try {
      expect((await server.request('PATCH', `${kind.rest}/${id}`, { html: '<p>log3</p>' }, withEtag)).status).toBe(412)
      expect((await server.patch(iri, { html: '<p>log4</p>' }, { token: admin, ...ifMatch(etag) })).status).toBe(412)
      const login = await server.request(
        'POST',
        '/api/users/login',
        { username: 'if_match_editor', password: 'wrong' },
        { contentType: 'application/json' },
      )
      expect(login.status).toBe(401)
    } finally {
      errors.restore()
      infos.restore()
    }
    expect(errors.text()).toBe('[]')
    expect(infos.text()).toMatch(/draft, which holds changes you have not read/)
    expect(infos.text()).not.toMatch(/"stack"/)
  })
})
