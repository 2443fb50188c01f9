/**
 * Publishable components and page data: every row of the contract's state
 * table ("States and transitions > Publishable component or page data"), for
 * a component (HtmlContent) and for page data (NewsArticleData), through real
 * HTTP against real PostgreSQL. Row counts are read straight from the
 * database, so a transition that "looks" right in the response but leaves a
 * stray twin behind fails.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { recordWriteEvents as recordPublishEvents, summary } from '../support/writeEvents'
import { startTestServer, type TestResponse, type TestServer } from '../support/server'
import { firstReadAfter } from '../support/wait'

let server: TestServer
let admin: string // ROLE_ADMIN: matches the default publish permission
let user: string // ROLE_USER: signed in, no permission
let layout: string
let template: string
let group: string

const PAST = '2020-01-02T03:04:05.000Z'
const future = (ms = 3_600_000) => new Date(Date.now() + ms).toISOString()

let counter = 0
const ref = (name: string) => `${name}-${++counter}`

const sql = (server: TestServer, text: string, params: unknown[] = []) => server.sql(text, params)

const idOf = (iri: string) => iri.split('/').pop()!

/** The two publishable kinds of the reference site, described once so each row runs for both. */
interface Kind {
  shortName: string
  path: string
  table: string
  /** The property the publish group requires. */
  required: string
  body(value: string | null): Record<string, unknown>
}

const KINDS: Kind[] = [
  {
    shortName: 'HtmlContent',
    path: '/_api/component/html_contents',
    table: '_acb_html_contents',
    required: 'html',
    body: (value) => ({ html: value }),
  },
  {
    shortName: 'NewsArticleData',
    path: '/_api/page_data/news_article_datas',
    table: '_acb_news_article_datas',
    required: 'summary',
    body: (value) => ({ title: ref('news'), page: template, summary: value }),
  },
]

async function rowsOf(
  s: TestServer,
  kind: Kind,
): Promise<
  Array<{ id: string; published_at: Date | null; published_resource_id: string | null; content: string | null }>
> {
  return sql(
    s,
    `SELECT id, published_at, published_resource_id, ${kind.required === 'html' ? 'html' : 'summary'} AS content FROM ${kind.table} ORDER BY created_at`,
  )
}

async function row(s: TestServer, kind: Kind, iri: string) {
  return (await rowsOf(s, kind)).find((r) => r.id === idOf(iri)) ?? null
}

function expect2xx(response: TestResponse, status: number) {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${response.text}`)
}

async function createDraft(
  s: TestServer,
  token: string,
  kind: Kind,
  content: string | null,
  extra: Record<string, unknown> = {},
) {
  const response = await s.post(kind.path, { ...kind.body(content), ...extra }, { token })
  expect2xx(response, 201)
  return response.body as Record<string, any>
}

/** A live published record (POST with a past publishedAt by a permitted caller). */
async function createPublished(s: TestServer, token: string, kind: Kind, content: string) {
  const response = await s.post(kind.path, { ...kind.body(content), publishedAt: PAST }, { token })
  expect2xx(response, 201)
  expect(response.body._metadata.publishable.published).toBe(true)
  return response.body as Record<string, any>
}

/** A published record with a draft twin holding `draftContent`. */
async function createWithDraft(s: TestServer, token: string, kind: Kind, content: string, draftContent: string) {
  const published = await createPublished(s, token, kind, content)
  const response = await s.patch(published['@id'], { [kind.required]: draftContent }, { token })
  expect2xx(response, 200)
  expect(response.body['@id']).not.toBe(published['@id'])
  return { published, draft: response.body as Record<string, any> }
}

/**
 * A request to Payload's own REST API (/api), signed in with the JSON-LD
 * session cookie (which Payload accepts, as the admin panel does).
 */
function rest(
  s: TestServer,
  token: string,
  method: string,
  path: string,
  body?: Record<string, unknown>,
): Promise<TestResponse> {
  return s.request(method, path, body, {
    contentType: 'application/json',
    headers: { accept: 'application/json', cookie: `api_component=${encodeURIComponent(token)}` },
  })
}

function expectViolation(response: TestResponse, kind: Kind) {
  expect(response.status).toBe(422)
  expect(response.body['@type']).toBe('ConstraintViolation')
  expect(response.body.violations).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ propertyPath: kind.required, code: `${kind.shortName}:published` }),
    ]),
  )
}

const events = recordPublishEvents()

beforeAll(async () => {
  // Moments are moved into the past with plain SQL (no write event): read them on every request, as
  // scheduleRecheck: 0 does (the kept publication moments are tested in test/core/publicationMoment.test.ts).
  // Moments are moved in SQL here (nothing runs at a moment): the read model, which knows writes and real time
  // only, is off; test/readModel covers it with time really passing.
  server = await startTestServer({ options: { scheduleRecheck: 0, readModel: { enabled: false } } })
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
  layout = (await server.post('/_api/_/layouts', { reference: 'layout' }, { token: admin })).body['@id']
  template = (
    await server.post(
      '/_api/_/pages',
      { reference: 'news-template', title: 'T', layout, isTemplate: true },
      { token: admin },
    )
  ).body['@id']
  group = (await server.post('/_api/_/component_groups', { reference: 'main', location: 'main' }, { token: admin }))
    .body['@id']
})
afterAll(async () => {
  await server?.close()
})

describe.each(KINDS)('$shortName', (kind) => {
  describe('none → POST', () => {
    it('by a permitted caller without publishedAt: an unpublished draft, hidden from the public', async () => {
      const before = (await rowsOf(server, kind)).length
      const draft = await createDraft(server, admin, kind, 'first draft')
      expect(draft.publishedAt).toBeNull()
      expect(draft._metadata.publishable).toMatchObject({ published: false, publishedAt: null })
      expect((await rowsOf(server, kind)).length).toBe(before + 1)
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_at: null, published_resource_id: null })
      expect((await server.get(draft['@id'])).status).toBe(404)
      expect((await server.get(draft['@id'], { token: user })).status).toBe(404)
      expect((await server.get(draft['@id'], { token: admin })).body[kind.required]).toBe('first draft')
      expect(summary(events)).toEqual([`create ${draft['@id']}`])
    })

    it('by a permitted caller with a future publishedAt: a scheduled draft, not live yet', async () => {
      const at = future()
      const draft = await createDraft(server, admin, kind, 'scheduled', { publishedAt: at })
      expect(draft.publishedAt).toBe(at)
      expect(draft._metadata.publishable).toEqual(expect.objectContaining({ published: false, publishedAt: at }))
      expect((await server.get(draft['@id'])).status).toBe(404)
      expect((await server.get(kind.path)).body.member.map((m: any) => m['@id'])).not.toContain(draft['@id'])
    })

    it('by a permitted caller with a past publishedAt: published at once, after the publish validation group', async () => {
      const before = (await rowsOf(server, kind)).length
      const invalid = await server.post(kind.path, { ...kind.body(null), publishedAt: PAST }, { token: admin })
      expectViolation(invalid, kind)
      const blank = await server.post(kind.path, { ...kind.body(''), publishedAt: PAST }, { token: admin })
      expectViolation(blank, kind)
      expect((await rowsOf(server, kind)).length).toBe(before)
      expect(events).toEqual([])

      const published = await createPublished(server, admin, kind, 'live')
      expect(published.publishedAt).toBe(PAST)
      const read = await server.get(published['@id'])
      expect(read.status).toBe(200)
      expect(read.body[kind.required]).toBe('live')
      expect(summary(events)).toEqual([`publish ${published['@id']}`])
    })

    it('a POST carrying publishedResource (or draftResource) is never obeyed', async () => {
      const live = await createPublished(server, admin, kind, 'the live one')
      const response = await server.post(
        kind.path,
        { ...kind.body('pretend twin'), publishedResource: live['@id'], draftResource: live['@id'] },
        { token: admin },
      )
      expect(response.status).toBe(201)
      expect(response.body.publishedResource).toBeNull()
      expect(response.body.draftResource).toBeNull()
      expect(await row(server, kind, response.body['@id'])).toMatchObject({ published_resource_id: null })
      // The live record did not gain a draft: an admin still reads the live content.
      const read = await server.get(live['@id'], { token: admin })
      expect(read.body['@id']).toBe(live['@id'])
      expect(read.body[kind.required]).toBe('the live one')
      expect(read.body.draftResource).toBeNull()
      // Nor by PATCH.
      const patched = await server.patch(response.body['@id'], { publishedResource: live['@id'] }, { token: admin })
      expect(patched.status).toBe(200)
      expect(await row(server, kind, response.body['@id'])).toMatchObject({ published_resource_id: null })
    })
    it("nor through Payload itself (REST API, admin panel, Local API): the twin link is the service's alone", async () => {
      const live = await createPublished(server, admin, kind, 'live')
      const slug = kind.path.split('/').pop()!
      const body = kind.body('forged')
      if (typeof body.page === 'string') body.page = idOf(body.page) // Payload's APIs take ids
      const data = { ...body, publishedResource: idOf(live['@id']) }
      // Payload's REST API (what the admin panel sends): POST and PATCH naming a twin are saved without the link.
      const posted = await rest(server, admin, 'POST', `/api/${slug}`, data)
      expect(posted.status).toBe(201)
      expect(posted.body.doc.publishedResource ?? null).toBeNull()
      expect(await row(server, kind, `/${posted.body.doc.id}`)).toMatchObject({ published_resource_id: null })
      const restPatched = await rest(server, admin, 'PATCH', `/api/${slug}/${posted.body.doc.id}`, {
        publishedResource: idOf(live['@id']),
      })
      expect(restPatched.status).toBe(200)
      expect(restPatched.body.doc.publishedResource ?? null).toBeNull()
      expect(await row(server, kind, `/${posted.body.doc.id}`)).toMatchObject({ published_resource_id: null })
      expect((await server.get(live['@id'], { token: admin })).body.draftResource).toBeNull()
      // The Local API (scripts, the operator's code) alike.
      const created = (await server.payload.create({ collection: slug as never, data: data as never, depth: 0 })) as any
      expect(created.publishedResource ?? null).toBeNull()
      expect(await row(server, kind, `/${created.id}`)).toMatchObject({ published_resource_id: null })
      await server.payload.update({
        collection: slug as never,
        id: created.id,
        data: { publishedResource: idOf(live['@id']) } as never,
      })
      expect(await row(server, kind, `/${created.id}`)).toMatchObject({ published_resource_id: null })
      // A real twin keeps its link when Payload updates it, and loses it to no client.
      const { draft } = await createWithDraft(server, admin, kind, 'p', 'd')
      await server.payload.update({
        collection: slug as never,
        id: idOf(draft['@id']),
        data: { publishedResource: null, [kind.required]: 'd2' } as never,
      })
      expect((await row(server, kind, draft['@id']))!.published_resource_id).not.toBeNull()
      const unlinked = await rest(server, admin, 'PATCH', `/api/${slug}/${idOf(draft['@id'])}`, {
        publishedResource: null,
        [kind.required]: 'd3',
      })
      expect(unlinked.status).toBe(200)
      expect(await row(server, kind, draft['@id'])).toMatchObject({ content: 'd3' })
      expect((await row(server, kind, draft['@id']))!.published_resource_id).not.toBeNull()
    })
  })

  describe('draft → PATCH publishedAt now or past (permitted caller)', () => {
    it('publishes a draft without twin in place (same IRI), when the publish group passes', async () => {
      const draft = await createDraft(server, admin, kind, 'ready')
      events.length = 0
      const now = new Date().toISOString()
      const response = await server.patch(draft['@id'], { publishedAt: now }, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body['@id']).toBe(draft['@id'])
      expect(response.body._metadata.publishable).toMatchObject({ published: true, publishedAt: now })
      const read = await server.get(draft['@id'])
      expect(read.status).toBe(200)
      expect(read.body[kind.required]).toBe('ready')
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_resource_id: null })
      expect(summary(events)).toEqual([`publish ${draft['@id']}`])
    })

    it('refuses with 422 and violations in <ShortName>:published when the required property is missing; the draft stays', async () => {
      const draft = await createDraft(server, admin, kind, null)
      events.length = 0
      const response = await server.patch(draft['@id'], { publishedAt: PAST }, { token: admin })
      expectViolation(response, kind)
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_at: null })
      expect((await server.get(draft['@id'])).status).toBe(404)
      // The same PATCH setting the property publishes.
      const ok = await server.patch(
        draft['@id'],
        { publishedAt: PAST, [kind.required]: 'now filled' },
        { token: admin },
      )
      expect(ok.status).toBe(200)
      expect((await server.get(draft['@id'])).body[kind.required]).toBe('now filled')
      expect(events.map((e) => e.type)).toEqual(['publish'])
    })

    it('clearing the required property in the publishing PATCH is refused too', async () => {
      const draft = await createDraft(server, admin, kind, 'filled')
      const response = await server.patch(draft['@id'], { publishedAt: PAST, [kind.required]: null }, { token: admin })
      expectViolation(response, kind)
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_at: null, content: 'filled' })
    })

    it('on a draft with a twin: the twin receives the content, the draft is deleted', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'new')
      const before = (await rowsOf(server, kind)).length
      events.length = 0
      const response = await server.patch(draft['@id'], { publishedAt: PAST }, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body['@id']).toBe(published['@id'])
      expect(response.body[kind.required]).toBe('new')
      expect(response.body.draftResource).toBeNull()
      expect((await rowsOf(server, kind)).length).toBe(before - 1)
      expect(await row(server, kind, draft['@id'])).toBeNull()
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'new', published_resource_id: null })
      expect((await server.get(published['@id'])).body[kind.required]).toBe('new')
      expect((await server.get(draft['@id'], { token: admin })).status).toBe(404)
      expect(summary(events)).toEqual([`delete ${draft['@id']}`, `publish ${published['@id']}`])
    })

    it('on a draft with a twin whose required property is missing: 422, nothing changes', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'new')
      await server.patch(draft['@id'], { [kind.required]: null }, { token: admin })
      const response = await server.patch(draft['@id'], { publishedAt: PAST }, { token: admin })
      expectViolation(response, kind)
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_resource_id: idOf(published['@id']) })
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'old' })
    })
  })

  describe('draft → PATCH publishedAt in the future (permitted caller)', () => {
    it('schedules the draft; the live version stays until the moment, then the draft replaces it on the next read', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'before', 'after')
      const at = future()
      const response = await server.patch(draft['@id'], { publishedAt: at }, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body['@id']).toBe(draft['@id'])
      expect(response.body._metadata.publishable).toMatchObject({ published: false, publishedAt: at })
      expect((await server.get(published['@id'])).body[kind.required]).toBe('before')
      expect((await server.get(published['@id'], { token: admin })).body[kind.required]).toBe('after')
      // The moment comes (moved into the past in the database: nothing runs at that moment).
      await sql(server, `UPDATE ${kind.table} SET published_at = now() - interval '1 second' WHERE id = $1`, [
        idOf(draft['@id']),
      ])
      expect(await row(server, kind, draft['@id'])).not.toBeNull()
      events.length = 0
      const read = await server.get(published['@id'])
      expect(read.status).toBe(200)
      expect(read.body[kind.required]).toBe('after')
      expect(await row(server, kind, draft['@id'])).toBeNull()
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'after', published_resource_id: null })
      expect(summary(events)).toEqual([`delete ${draft['@id']}`, `publish ${published['@id']}`])
    })

    it('with a real wait: a publishedAt a few seconds ahead goes live by itself on the first read after it', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'v1', 'v2')
      const at = new Date(Date.now() + 4000)
      expect((await server.patch(draft['@id'], { publishedAt: at.toISOString() }, { token: admin })).status).toBe(200)
      const current = (list: TestResponse) => list.body.member.find((m: any) => m['@id'] === published['@id'])
      // Collection reads until the moment has passed (a collection read is a read too): v1 for every read
      // answered before it, however slow the machine (a fixed "read once right after" could land after it).
      let readsBefore = 0
      const list = await firstReadAfter(
        at,
        () => server.get(kind.path),
        (before) => {
          readsBefore++
          expect(current(before)[kind.required]).toBe('v1')
        },
      )
      expect(readsBefore).toBeGreaterThan(0)
      const member = current(list)
      expect(member[kind.required]).toBe('v2')
      expect(list.body.member.map((m: any) => m['@id'])).not.toContain(draft['@id'])
      expect(await row(server, kind, draft['@id'])).toBeNull()
    })

    it('scheduling is setting publishedAt: the publish group applies (a scheduled draft can never go live invalid)', async () => {
      const before = (await rowsOf(server, kind)).length
      expectViolation(
        await server.post(kind.path, { ...kind.body(null), publishedAt: future() }, { token: admin }),
        kind,
      )
      expect((await rowsOf(server, kind)).length).toBe(before)
      const draft = await createDraft(server, admin, kind, null)
      expectViolation(await server.patch(draft['@id'], { publishedAt: future() }, { token: admin }), kind)
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_at: null })
      // Once scheduled, emptying the required property is refused too; unscheduling (null) is not.
      const scheduled = await createDraft(server, admin, kind, 'ok', { publishedAt: future() })
      expectViolation(await server.patch(scheduled['@id'], { [kind.required]: null }, { token: admin }), kind)
      const unscheduled = await server.patch(
        scheduled['@id'],
        { [kind.required]: null, publishedAt: null },
        { token: admin },
      )
      expect(unscheduled.status).toBe(200)
      expect(await row(server, kind, scheduled['@id'])).toMatchObject({ published_at: null, content: null })
      // Saving a plain draft never needs it.
      expect((await server.patch(draft['@id'], { [kind.required]: '' }, { token: admin })).status).toBe(200)
    })

    it('a scheduled draft without twin goes live at its moment and is hidden before', async () => {
      const draft = await createDraft(server, admin, kind, 'soon')
      const response = await server.patch(draft['@id'], { publishedAt: future() }, { token: admin })
      expect(response.status).toBe(200)
      expect((await server.get(draft['@id'])).status).toBe(404)
      await sql(server, `UPDATE ${kind.table} SET published_at = now() - interval '1 second' WHERE id = $1`, [
        idOf(draft['@id']),
      ])
      const read = await server.get(draft['@id'])
      expect(read.status).toBe(200)
      expect(read.body._metadata.publishable.published).toBe(true)
    })

    it('a due scheduled draft read by its own IRI is promoted too: the admin is given the live record', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'a', 'b')
      await server.patch(draft['@id'], { publishedAt: future() }, { token: admin })
      await sql(server, `UPDATE ${kind.table} SET published_at = now() - interval '1 second' WHERE id = $1`, [
        idOf(draft['@id']),
      ])
      const read = await server.get(draft['@id'], { token: admin })
      expect(read.status).toBe(200)
      expect(read.body['@id']).toBe(published['@id'])
      expect(read.body[kind.required]).toBe('b')
      expect(await row(server, kind, draft['@id'])).toBeNull()
    })
  })

  describe('live published → PATCH by a permitted caller', () => {
    it('creates the draft twin; the published version stays live; a second PATCH updates the same draft', async () => {
      const published = await createPublished(server, admin, kind, 'live')
      const before = (await rowsOf(server, kind)).length
      events.length = 0
      const first = await server.patch(published['@id'], { [kind.required]: 'edit 1' }, { token: admin })
      expect(first.status).toBe(200)
      const draftIri = first.body['@id']
      expect(draftIri).not.toBe(published['@id'])
      expect(first.body.publishedResource).toBe(published['@id'])
      expect(first.body[kind.required]).toBe('edit 1')
      expect(first.body._metadata.publishable).toMatchObject({ published: false, publishedAt: null })
      expect((await rowsOf(server, kind)).length).toBe(before + 1)
      expect(await row(server, kind, draftIri)).toMatchObject({
        published_resource_id: idOf(published['@id']),
        published_at: null,
      })
      expect((await server.get(published['@id'])).body[kind.required]).toBe('live')
      expect(summary(events)).toEqual([`create ${draftIri}`])

      // The second PATCH, through either IRI, updates the same draft.
      const second = await server.patch(published['@id'], { [kind.required]: 'edit 2' }, { token: admin })
      expect(second.body['@id']).toBe(draftIri)
      const third = await server.patch(draftIri, { [kind.required]: 'edit 3' }, { token: admin })
      expect(third.body['@id']).toBe(draftIri)
      expect((await rowsOf(server, kind)).length).toBe(before + 1)
      expect(await row(server, kind, draftIri)).toMatchObject({ content: 'edit 3' })
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'live' })
      const read = await server.get(published['@id'], { token: admin })
      expect(read.body['@id']).toBe(draftIri)
      expect((await server.get(`${published['@id']}?published=true`, { token: admin })).body.draftResource).toBe(
        draftIri,
      )
    })

    it('ignores a past publishedAt: the edit goes to the draft, nothing is published', async () => {
      const published = await createPublished(server, admin, kind, 'live')
      const response = await server.patch(
        published['@id'],
        { [kind.required]: 'edited', publishedAt: new Date().toISOString() },
        { token: admin },
      )
      expect(response.status).toBe(200)
      expect(response.body['@id']).not.toBe(published['@id'])
      expect(response.body.publishedAt).toBeNull()
      expect((await server.get(published['@id'])).body[kind.required]).toBe('live')
      expect((await server.get(published['@id'])).body.publishedAt).toBe(PAST)
    })

    it('publishedAt null does not unpublish (there is no unpublish by PATCH)', async () => {
      const published = await createPublished(server, admin, kind, 'stays live')
      const response = await server.patch(published['@id'], { publishedAt: null }, { token: admin })
      expect(response.status).toBe(200)
      expect(response.body['@id']).not.toBe(published['@id'])
      const read = await server.get(published['@id'])
      expect(read.status).toBe(200)
      expect(read.body._metadata.publishable).toMatchObject({ published: true, publishedAt: PAST })
      expect(await row(server, kind, published['@id'])).toMatchObject({ published_resource_id: null })
      expect((await row(server, kind, published['@id']))!.published_at).not.toBeNull()
      // Nor does the same through the draft: publishedAt null on the draft keeps the twin live.
      await server.patch(response.body['@id'], { publishedAt: null }, { token: admin })
      expect((await server.get(published['@id'])).status).toBe(200)
    })

    it('a future publishedAt in the edit schedules the draft', async () => {
      const published = await createPublished(server, admin, kind, 'live')
      const at = future()
      const response = await server.patch(
        published['@id'],
        { [kind.required]: 'later', publishedAt: at },
        { token: admin },
      )
      expect(response.body.publishedAt).toBe(at)
      expect(response.body['@id']).not.toBe(published['@id'])
      expect((await server.get(published['@id'])).body[kind.required]).toBe('live')
    })

    it('a signed-in user without rights cannot edit (403), anonymous neither (401)', async () => {
      const published = await createPublished(server, admin, kind, 'live')
      expect((await server.patch(published['@id'], { [kind.required]: 'x' }, { token: user })).status).toBe(403)
      expect((await server.patch(published['@id'], { [kind.required]: 'x' })).status).toBe(401)
      expect((await server.request('DELETE', published['@id'], undefined, { token: user })).status).toBe(403)
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'live' })
    })
  })

  describe('live published → DELETE', () => {
    it('?published=true removes the published version only: the draft is kept, its pointer cleared', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'pending')
      events.length = 0
      const response = await server.delete(`${published['@id']}?published=true`, { token: admin })
      expect(response.status).toBe(204)
      expect(await row(server, kind, published['@id'])).toBeNull()
      expect(await row(server, kind, draft['@id'])).toMatchObject({
        published_resource_id: null,
        content: 'pending',
        published_at: null,
      })
      expect((await server.get(published['@id'])).status).toBe(404)
      expect((await server.get(published['@id'], { token: admin })).status).toBe(404)
      const read = await server.get(draft['@id'], { token: admin })
      expect(read.status).toBe(200)
      expect(read.body.publishedResource).toBeNull()
      expect(read.body._metadata.publishable.published).toBe(false)
      expect((await server.get(draft['@id'])).status).toBe(404)
      // The draft lost its pointer: a changed record too.
      expect(summary(events)).toEqual([`delete ${published['@id']}`, `update ${draft['@id']}`])
    })

    it('?published=true through the draft IRI also removes the published version, not the draft', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'pending')
      const response = await server.delete(`${draft['@id']}?published=true`, { token: admin })
      expect(response.status).toBe(204)
      expect(await row(server, kind, published['@id'])).toBeNull()
      expect(await row(server, kind, draft['@id'])).toMatchObject({ published_resource_id: null, content: 'pending' })
    })

    it('?published=true on a draft that was never published: 404, nothing removed', async () => {
      const draft = await createDraft(server, admin, kind, 'never')
      expect((await server.delete(`${draft['@id']}?published=true`, { token: admin })).status).toBe(404)
      expect(await row(server, kind, draft['@id'])).not.toBeNull()
    })

    it('?published=true on a published record without draft removes it', async () => {
      const published = await createPublished(server, admin, kind, 'alone')
      expect((await server.delete(`${published['@id']}?published=true`, { token: admin })).status).toBe(204)
      expect(await row(server, kind, published['@id'])).toBeNull()
    })

    it('DELETE of a draft removes the draft only; the published version stays', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'live', 'pending')
      expect((await server.delete(draft['@id'], { token: admin })).status).toBe(204)
      expect(await row(server, kind, draft['@id'])).toBeNull()
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'live' })
      expect((await server.get(published['@id'], { token: admin })).body['@id']).toBe(published['@id'])
    })

    it('?published=false removes the draft version only', async () => {
      const { published, draft } = await createWithDraft(server, admin, kind, 'live', 'pending')
      expect((await server.delete(`${published['@id']}?published=false`, { token: admin })).status).toBe(204)
      expect(await row(server, kind, draft['@id'])).toBeNull()
      expect(await row(server, kind, published['@id'])).toMatchObject({ content: 'live' })
    })
  })
})

describe('HtmlContent: references follow the published IRI', () => {
  const kind = KINDS[0]!

  async function position(component: string) {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: group, component, sortValue: ++counter },
      { token: admin },
    )
    expect2xx(response, 201)
    return response.body['@id'] as string
  }
  async function blogArticle(htmlContent: string) {
    const response = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: ref('blog'), page: template, htmlContent },
      { token: admin },
    )
    expect2xx(response, 201)
    return response.body['@id'] as string
  }

  it('publishing a draft with a twin moves positions and page data properties that named the draft to the published IRI', async () => {
    const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'new')
    const onDraft = await position(draft['@id'])
    const onPublished = await position(published['@id'])
    const article = await blogArticle(draft['@id'])
    const response = await server.patch(draft['@id'], { publishedAt: PAST }, { token: admin })
    expect(response.status).toBe(200)
    expect((await server.get(onDraft)).body.component).toBe(published['@id'])
    expect((await server.get(onPublished)).body.component).toBe(published['@id'])
    expect((await server.get(article)).body.htmlContent).toBe(published['@id'])
    const positions = await sql(
      server,
      `SELECT count(*)::int AS n FROM _acb_component_positions_rels WHERE _acb_html_contents_id = $1`,
      [idOf(published['@id'])],
    )
    expect(positions[0].n).toBe(2)
    expect((await server.get(published['@id'])).body._metadata.publishable.locationCount).toBe(3)
  })

  it('a scheduled promotion moves the references too', async () => {
    const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'new')
    const onDraft = await position(draft['@id'])
    const article = await blogArticle(draft['@id'])
    await server.patch(draft['@id'], { publishedAt: future() }, { token: admin })
    await sql(server, `UPDATE ${kind.table} SET published_at = now() - interval '1 second' WHERE id = $1`, [
      idOf(draft['@id']),
    ])
    expect((await server.get(published['@id'])).body.html).toBe('new')
    expect((await server.get(onDraft)).body.component).toBe(published['@id'])
    expect((await server.get(article)).body.htmlContent).toBe(published['@id'])
  })

  it('DELETE of the published record itself: the draft is kept and takes over its positions and page data properties', async () => {
    const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'pending')
    const pos = await position(published['@id'])
    const article = await blogArticle(published['@id'])
    const response = await server.delete(published['@id'], { token: admin })
    expect(response.status).toBe(204)
    expect(await row(server, kind, published['@id'])).toBeNull()
    expect(await row(server, kind, draft['@id'])).toMatchObject({ content: 'pending', published_resource_id: null })
    expect((await server.get(pos)).body.component).toBe(draft['@id'])
    expect((await server.get(article)).body.htmlContent).toBe(draft['@id'])
    const read = await server.get(draft['@id'], { token: admin })
    expect(read.body._metadata.publishable.locationCount).toBe(2)
  })

  it('DELETE ?published=true also hands the positions to the kept draft (it is not left orphaned)', async () => {
    const { published, draft } = await createWithDraft(server, admin, kind, 'old', 'pending')
    const pos = await position(published['@id'])
    expect((await server.delete(`${published['@id']}?published=true`, { token: admin })).status).toBe(204)
    expect((await server.get(pos)).body.component).toBe(draft['@id'])
  })
})

describe('NavigationLink: publish validation (label required; a route or a rawPath, violation on route)', () => {
  const LINKS = '/_api/component/navigation_links'

  it('refuses to publish without label (violation on label) or without route and rawPath (violation on route)', async () => {
    const bare = (await server.post(LINKS, {}, { token: admin })).body['@id']
    const response = await server.patch(bare, { publishedAt: PAST }, { token: admin })
    expect(response.status).toBe(422)
    const violations = response.body.violations.map((v: any) => [v.propertyPath, v.code]).sort()
    expect(violations).toEqual([
      ['label', 'NavigationLink:published'],
      ['route', 'NavigationLink:published'],
    ])
    const labelled = await server.patch(bare, { label: 'Home', publishedAt: PAST }, { token: admin })
    expect(labelled.status).toBe(422)
    expect(labelled.body.violations.map((v: any) => v.propertyPath)).toEqual(['route'])
    const ok = await server.patch(bare, { label: 'Home', rawPath: '/home', publishedAt: PAST }, { token: admin })
    expect(ok.status).toBe(200)
    expect((await server.get(bare)).body).toMatchObject({ label: 'Home', url: '/home' })
    // The draft's violations are shown to the permitted caller before publishing.
    const draft = await server.post(LINKS, { label: 'x' }, { token: admin })
    expect(draft.body._metadata.violations.map((v: any) => v.propertyPath)).toEqual(['route'])
  })
})

describe('a caller who may write but does not match the publish permission', () => {
  let other: TestServer
  let adminWithoutPermission: string
  let superAdmin: string
  let otherTemplate: string

  const kindsOn = () =>
    KINDS.map((kind) => ({
      ...kind,
      body: (value: string | null) =>
        kind.shortName === 'NewsArticleData'
          ? { title: ref('news'), page: otherTemplate, summary: value }
          : kind.body(value),
    }))

  beforeAll(async () => {
    other = await startTestServer({ options: { publishable: { permission: 'ROLE_SUPER_ADMIN' } } })
    adminWithoutPermission = await other.tokenFor('ROLE_ADMIN')
    superAdmin = await other.tokenFor('ROLE_SUPER_ADMIN')
    const l = (await other.post('/_api/_/layouts', { reference: 'l' }, { token: superAdmin })).body['@id']
    otherTemplate = (
      await other.post('/_api/_/pages', { reference: 't', layout: l, isTemplate: true }, { token: superAdmin })
    ).body['@id']
  })
  afterAll(async () => {
    await other?.close()
  })

  it('POST publishes at once, publishedAt set automatically (whatever was sent); no draft stage', async () => {
    for (const kind of kindsOn()) {
      for (const sent of [undefined, null, future()]) {
        const started = Date.now()
        const body = sent === undefined ? kind.body('direct') : { ...kind.body('direct'), publishedAt: sent }
        const response = await other.post(kind.path, body, { token: adminWithoutPermission })
        expect(response.status).toBe(201)
        const at = Date.parse(response.body._metadata.publishable.publishedAt)
        expect(at).toBeGreaterThanOrEqual(started - 1000)
        expect(at).toBeLessThanOrEqual(Date.now() + 1000)
        expect(response.body._metadata.publishable.published).toBe(true)
        expect((await other.get(response.body['@id'])).status).toBe(200)
      }
    }
  })

  it('POST without the required property: 422 (it is a publication)', async () => {
    for (const kind of kindsOn()) {
      const before = (await rowsOf(other, kind)).length
      expectViolation(await other.post(kind.path, kind.body(null), { token: adminWithoutPermission }), kind)
      expect((await rowsOf(other, kind)).length).toBe(before)
    }
  })

  it('PATCH updates the published record directly: no draft, publishedAt unchanged', async () => {
    for (const kind of kindsOn()) {
      const created = await other.post(kind.path, kind.body('v1'), { token: adminWithoutPermission })
      const before = (await rowsOf(other, kind)).length
      const publishedAt = created.body.publishedAt
      const response = await other.patch(
        created.body['@id'],
        { [kind.required]: 'v2', publishedAt: null },
        { token: adminWithoutPermission },
      )
      expect(response.status).toBe(200)
      expect(response.body['@id']).toBe(created.body['@id'])
      expect(response.body[kind.required]).toBe('v2')
      expect(response.body.publishedAt).toBe(publishedAt)
      expect((await rowsOf(other, kind)).length).toBe(before)
      expect((await other.get(created.body['@id'])).body[kind.required]).toBe('v2')
    }
  })

  it('never sees nor touches drafts of a permitted editor: draft IRI 404 on GET, PATCH and DELETE', async () => {
    for (const kind of kindsOn()) {
      const draft = await createDraft(other, superAdmin, kind, 'secret')
      expect((await other.get(draft['@id'], { token: adminWithoutPermission })).status).toBe(404)
      expect(
        (
          await other.patch(
            draft['@id'],
            { [kind.required]: 'x', publishedAt: PAST },
            { token: adminWithoutPermission },
          )
        ).status,
      ).toBe(404)
      expect((await other.delete(draft['@id'], { token: adminWithoutPermission })).status).toBe(404)
      expect(await row(other, kind, draft['@id'])).toMatchObject({ content: 'secret', published_at: null })
    }
  })

  it('DELETE of a published record with a draft: the published goes, the hidden draft stays and takes over', async () => {
    for (const kind of kindsOn()) {
      const { published, draft } = await createWithDraft(other, superAdmin, kind, 'live', 'pending')
      events.length = 0
      expect((await other.delete(published['@id'], { token: adminWithoutPermission })).status).toBe(204)
      expect(await row(other, kind, published['@id'])).toBeNull()
      expect(await row(other, kind, draft['@id'])).toMatchObject({ content: 'pending', published_resource_id: null })
      // The draft lost its pointer: a changed record too.
      expect(summary(events)).toEqual([`delete ${published['@id']}`, `update ${draft['@id']}`])
      // ?published=false (the draft side) is nothing this caller may see.
      const again = await createWithDraft(other, superAdmin, kind, 'live', 'pending')
      expect(
        (await other.delete(`${again.published['@id']}?published=false`, { token: adminWithoutPermission })).status,
      ).toBe(404)
      expect(await row(other, kind, again.draft['@id'])).not.toBeNull()
    }
  })

  it('through Payload itself (REST API, admin panel) too: no draft stage, no unpublish, drafts out of reach', async () => {
    const kind = kindsOn()[0]!
    // Payload's REST API, as the admin panel uses it.
    const posted = await rest(other, adminWithoutPermission, 'POST', '/api/html_contents', {
      html: 'x',
      publishedAt: null,
    })
    expect(posted.status).toBe(201)
    expect(posted.body.doc.publishedAt).not.toBeNull()
    expect((await other.get(`${kind.path}/${posted.body.doc.id}`)).status).toBe(200)
    const unpublish = await rest(other, adminWithoutPermission, 'PATCH', `/api/html_contents/${posted.body.doc.id}`, {
      publishedAt: null,
      html: 'y',
    })
    expect(unpublish.status).toBe(200)
    expect(await row(other, kind, `/${posted.body.doc.id}`)).toMatchObject({ content: 'y' })
    expect((await row(other, kind, `/${posted.body.doc.id}`))!.published_at).not.toBeNull()
    const hidden = await createDraft(other, superAdmin, kind, 'hidden by rest')
    // A draft's id answers exactly like an id that does not exist: Payload's 404 to read, its 403 to write.
    const nothing = '0b3f1d9e-7a6b-4a5c-9d8e-1f2a3b4c5d6e'
    for (const [method, body, status] of [
      ['GET', undefined, 404],
      ['PATCH', { html: 'touched' }, 403],
      ['DELETE', undefined, 403],
    ] as const) {
      const draftAnswer = await rest(
        other,
        adminWithoutPermission,
        method,
        `/api/html_contents/${idOf(hidden['@id'])}`,
        body,
      )
      const unknownAnswer = await rest(other, adminWithoutPermission, method, `/api/html_contents/${nothing}`, body)
      expect({ method, status: draftAnswer.status }).toEqual({ method, status })
      expect(draftAnswer.text.replaceAll(idOf(hidden['@id']), nothing)).toBe(unknownAnswer.text)
      expect(draftAnswer.text).not.toContain('hidden by rest')
    }
    expect(await row(other, kind, hidden['@id'])).toMatchObject({ content: 'hidden by rest', published_at: null })
    // The Local API with the same user and access checks.
    const [writer] = (
      await other.payload.find({ collection: 'users' as never, where: { roles: { contains: 'ROLE_ADMIN' } }, depth: 0 })
    ).docs as any[]
    const asWriter = { user: { ...writer, collection: 'users' }, overrideAccess: false, depth: 0 } as const
    const created = (await other.payload.create({
      collection: 'html_contents' as never,
      data: { html: 'x', publishedAt: null } as never,
      ...asWriter,
    })) as any
    expect(created.publishedAt).not.toBeNull()
    expect((await other.get(`${kind.path}/${created.id}`)).status).toBe(200)
    await other.payload.update({
      collection: 'html_contents' as never,
      id: created.id,
      data: { publishedAt: null, html: 'y' } as never,
      ...asWriter,
    })
    expect(await row(other, kind, `/${created.id}`)).toMatchObject({ content: 'y' })
    expect((await row(other, kind, `/${created.id}`))!.published_at).not.toBeNull()
    const draft = await createDraft(other, superAdmin, kind, 'hidden')
    await expect(
      other.payload.update({
        collection: 'html_contents' as never,
        id: idOf(draft['@id']),
        data: { html: 'touched' } as never,
        ...asWriter,
      }),
    ).rejects.toThrow()
    await expect(
      other.payload.delete({ collection: 'html_contents' as never, id: idOf(draft['@id']), ...asWriter }),
    ).rejects.toThrow()
    expect(await row(other, kind, draft['@id'])).toMatchObject({ content: 'hidden', published_at: null })
  })

  it('a published record with a draft: PATCH changes the published version, the draft is left as it is', async () => {
    for (const kind of kindsOn()) {
      const { published, draft } = await createWithDraft(other, superAdmin, kind, 'live', 'pending')
      const response = await other.patch(
        published['@id'],
        { [kind.required]: 'hotfix' },
        { token: adminWithoutPermission },
      )
      expect(response.status).toBe(200)
      expect(response.body['@id']).toBe(published['@id'])
      expect(response.body.draftResource).toBeNull()
      expect(await row(other, kind, published['@id'])).toMatchObject({ content: 'hotfix' })
      expect(await row(other, kind, draft['@id'])).toMatchObject({
        content: 'pending',
        published_resource_id: idOf(published['@id']),
      })
    }
  })
})
