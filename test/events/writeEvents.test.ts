/**
 * Issue 14, the write-event bus: one event per changed record, dispatched
 * after the commit of the transaction that changed it, on every API (the
 * JSON-LD API, Payload REST, the admin panel's multipart REST writes and the
 * Local API), for every resource type (publishable or not); none for a
 * rolled-back write. Publications stay events of their own (`publish`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'
import { onWriteEvent } from 'payload-cwa'
import { startTestServer, type TestServer } from '../support/server'
import { recordWriteEvents, summary } from '../support/writeEvents'

let server: TestServer
let admin: string
let groupId: string
const events = recordWriteEvents()

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  groupId = String(
    (
      await server.payload.create({
        collection: 'component_groups',
        data: { reference: 'events', location: 'events' } as never,
      })
    ).id,
  )
})
afterAll(async () => {
  await server?.close()
})

const past = () => new Date(Date.now() - 1000).toISOString()
const titleIri = (id: string) => `/_api/component/titles/${id}`
const titleRows = async (title: string) =>
  (await server.sql('SELECT id FROM _acb_titles WHERE title = $1', [title])).length

const restHeaders = () => ({ accept: 'application/json', cookie: `api_component=${admin}` })

function multipart(data: Record<string, unknown>): { raw: string; contentType: string } {
  const boundary = 'events-boundary'
  return {
    raw: `--${boundary}\r\nContent-Disposition: form-data; name="_payload"\r\n\r\n${JSON.stringify(data)}\r\n--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

describe('one event per changed record, on every API (a type that is not publishable: Title)', () => {
  it('the JSON-LD API: POST, PATCH, DELETE', async () => {
    const created = await server.post('/_api/component/titles', { title: 'jsonld' }, { token: admin })
    expect(created.status).toBe(201)
    const iri = created.body['@id'] as string
    expect(summary(events)).toEqual([`create ${iri}`])
    expect(events[0]!.doc).toMatchObject({ title: 'jsonld' })

    events.length = 0
    expect((await server.patch(iri, { title: 'jsonld 2' }, { token: admin })).status).toBe(200)
    expect(summary(events)).toEqual([`update ${iri}`])
    expect(events[0]!.doc).toMatchObject({ title: 'jsonld 2' })

    events.length = 0
    expect((await server.delete(iri, { token: admin })).status).toBe(204)
    expect(summary(events)).toEqual([`delete ${iri}`])
  })

  it("Payload's REST API (/api): POST, PATCH, DELETE", async () => {
    const created = await server.request(
      'POST',
      '/api/titles',
      { title: 'rest' },
      { contentType: 'application/json', headers: restHeaders() },
    )
    expect(created.status).toBe(201)
    const id = String(created.body.doc.id)
    expect(summary(events)).toEqual([`create ${titleIri(id)}`])

    events.length = 0
    expect(
      (
        await server.request(
          'PATCH',
          `/api/titles/${id}`,
          { title: 'rest 2' },
          { contentType: 'application/json', headers: restHeaders() },
        )
      ).status,
    ).toBe(200)
    expect(summary(events)).toEqual([`update ${titleIri(id)}`])

    events.length = 0
    expect((await server.request('DELETE', `/api/titles/${id}`, undefined, { headers: restHeaders() })).status).toBe(
      200,
    )
    expect(summary(events)).toEqual([`delete ${titleIri(id)}`])
  })

  it('the admin panel (multipart _payload writes to /api with the session cookie)', async () => {
    const created = await server.request('POST', '/api/titles', undefined, {
      ...multipart({ title: 'admin' }),
      headers: restHeaders(),
    })
    expect(created.status).toBe(201)
    const id = String(created.body.doc.id)
    expect(summary(events)).toEqual([`create ${titleIri(id)}`])

    events.length = 0
    const updated = await server.request('PATCH', `/api/titles/${id}`, undefined, {
      ...multipart({ title: 'admin 2' }),
      headers: restHeaders(),
    })
    expect(updated.status).toBe(200)
    expect(summary(events)).toEqual([`update ${titleIri(id)}`])
  })

  it('the Local API', async () => {
    const doc = await server.payload.create({ collection: 'titles', data: { title: 'local' } as never })
    const id = String(doc.id)
    expect(summary(events)).toEqual([`create ${titleIri(id)}`])
    events.length = 0
    await server.payload.update({ collection: 'titles', id, data: { title: 'local 2' } as never })
    await server.payload.delete({ collection: 'titles', id })
    expect(events.map((e) => `${e.type} ${e.iri}`)).toEqual([`update ${titleIri(id)}`, `delete ${titleIri(id)}`])
  })

  it('a bulk update through /api gives one event per record it changed', async () => {
    const ids = []
    for (const title of ['bulk-a', 'bulk-b', 'bulk-c'])
      ids.push(String((await server.payload.create({ collection: 'titles', data: { title } as never })).id))
    events.length = 0
    const where = encodeURIComponent('bulk-')
    const response = await server.request(
      'PATCH',
      `/api/titles?where[title][like]=${where}`,
      { uiClassNames: ['bulk'] },
      { contentType: 'application/json', headers: restHeaders() },
    )
    expect(response.status).toBe(200)
    expect(summary(events)).toEqual(ids.map((id) => `update ${titleIri(id)}`).sort())
  })
})

describe('after the commit, never for a rollback', () => {
  it('listeners run once the rows are visible to other connections, and in one batch per transaction', async () => {
    const seen: boolean[] = []
    const stop = onWriteEvent(async (committed) => {
      for (const event of committed)
        if (event.collection === 'titles')
          seen.push((await server.sql('SELECT 1 FROM _acb_titles WHERE id = $1', [event.id])).length === 1)
    })
    try {
      const req = await createLocalReq({}, server.payload)
      await initTransaction(req)
      const a = await server.payload.create({ collection: 'titles', data: { title: 'tx-a' } as never, req })
      const b = await server.payload.create({ collection: 'titles', data: { title: 'tx-b' } as never, req })
      await server.payload.update({ collection: 'titles', id: a.id, data: { title: 'tx-a2' } as never, req })
      expect(events).toEqual([])
      await commitTransaction(req)
      expect(summary(events)).toEqual([`create ${titleIri(String(a.id))}`, `create ${titleIri(String(b.id))}`].sort())
      expect(new Set(events.map((e) => e.batch)).size).toBe(1)
      expect(seen).toEqual([true, true])
    } finally {
      stop()
    }
  })

  it('a rolled-back Local API transaction emits nothing', async () => {
    const req = await createLocalReq({}, server.payload)
    await initTransaction(req)
    await server.payload.create({ collection: 'titles', data: { title: 'rolled back' } as never, req })
    await killTransaction(req)
    expect(events).toEqual([])
    expect(await titleRows('rolled back')).toBe(0)
  })

  it('a JSON-LD write that fails after writing (POST /_/publish whose last draft fails validation) emits nothing', async () => {
    const good = await server.post('/_api/component/html_contents', { html: '<p>good</p>' }, { token: admin })
    const bad = await server.post('/_api/component/html_contents', {}, { token: admin })
    expect([good.status, bad.status]).toEqual([201, 201])
    events.length = 0
    const refused = await server.post(
      '/_api/_/publish',
      { iris: [good.body['@id'], bad.body['@id']] },
      { token: admin },
    )
    expect(refused.status).toBe(422)
    expect(events).toEqual([])
    expect((await server.get(good.body['@id'])).status).toBe(404)
  })

  it('a record created and deleted in one transaction never existed outside it: no event', async () => {
    const req = await createLocalReq({}, server.payload)
    await initTransaction(req)
    const doc = await server.payload.create({ collection: 'titles', data: { title: 'ephemeral' } as never, req })
    await server.payload.delete({ collection: 'titles', id: doc.id, req })
    await commitTransaction(req)
    expect(events).toEqual([])
  })

  it('a listener that throws is logged and does not fail the write', async () => {
    const stop = onWriteEvent(() => {
      throw new Error('listener failure')
    })
    try {
      const created = await server.post('/_api/component/titles', { title: 'listener fails' }, { token: admin })
      expect(created.status).toBe(201)
      expect(await titleRows('listener fails')).toBe(1)
      expect(summary(events)).toEqual([`create ${created.body['@id']}`])
    } finally {
      stop()
    }
  })
})

describe('publications and records changed on the side', () => {
  it('creating a published record is one publish event', async () => {
    const created = await server.post(
      '/_api/component/html_contents',
      { html: '<p>now</p>', publishedAt: past() },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(summary(events)).toEqual([`publish ${created.body['@id']}`])
  })

  it('publishing a draft of a published record: publish of the published record, delete of the draft, update of the position that moved to it', async () => {
    const published = await server.post(
      '/_api/component/html_contents',
      { html: '<p>v1</p>', publishedAt: past() },
      { token: admin },
    )
    const draft = await server.patch(published.body['@id'], { html: '<p>v2</p>' }, { token: admin })
    expect(draft.body['@id']).not.toBe(published.body['@id'])
    const position = await server.post(
      '/_api/_/component_positions',
      { componentGroup: `/_api/_/component_groups/${groupId}`, component: draft.body['@id'] },
      { token: admin },
    )
    expect(position.status).toBe(201)
    events.length = 0
    const publish = await server.patch(draft.body['@id'], { publishedAt: past() }, { token: admin })
    expect(publish.status).toBe(200)
    expect(summary(events)).toEqual(
      [`delete ${draft.body['@id']}`, `publish ${published.body['@id']}`, `update ${position.body['@id']}`].sort(),
    )
  })

  it('a route created for a page is one create event (its stored go-live date is not a second one)', async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'events-layout' } as never })
    const page = await server.payload.create({
      collection: 'pages',
      data: { reference: 'events-page', title: 'E', layout: layout.id } as never,
    })
    events.length = 0
    const route = await server.post(
      '/_api/_/routes',
      { path: '/events-page', page: `/_api/_/pages/${page.id}` },
      { token: admin },
    )
    expect(route.status).toBe(201)
    expect(summary(events)).toEqual([`create ${route.body['@id']}`])
  })

  it("a route given a later go-live date: one event for it and one for each descendant's route whose effective date changed", async () => {
    const layout = await server.payload.create({ collection: 'layouts', data: { reference: 'tree-layout' } as never })
    const parent = await server.payload.create({
      collection: 'pages',
      data: { reference: 'tree-parent', title: 'P', layout: layout.id } as never,
    })
    const child = await server.payload.create({
      collection: 'pages',
      data: { reference: 'tree-child', title: 'C', layout: layout.id, parentPage: parent.id } as never,
    })
    const parentRoute = await server.post(
      '/_api/_/routes',
      { path: '/tree', page: `/_api/_/pages/${parent.id}` },
      { token: admin },
    )
    const childRoute = await server.post(
      '/_api/_/routes',
      { path: '/tree/child', page: `/_api/_/pages/${child.id}` },
      { token: admin },
    )
    expect(parentRoute.status).toBe(201)
    expect(childRoute.status).toBe(201)
    events.length = 0
    const future = new Date(Date.now() + 86_400_000).toISOString()
    expect((await server.patch(parentRoute.body['@id'], { liveAt: future }, { token: admin })).status).toBe(200)
    expect(summary(events)).toEqual([`update ${childRoute.body['@id']}`, `update ${parentRoute.body['@id']}`].sort())
  })
})
