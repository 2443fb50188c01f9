/**
 * Issue 25, a miss after this instance's own write: the write learns which stored answers it dropped, so the first
 * read of one goes straight to Payload's path (no lookup: one round trip less on the read a publish makes cold).
 * Its fill is fenced by the snapshot the write took in its own transaction, with the write counted as committed:
 * the fill's answer is stored, unless a later write to its tags committed before the store.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import { snapshotWithCommitted, takeDropped } from '../../plugins/cwa/dist/features/readModel/dropped.js'
import { flushStores } from '../../plugins/cwa/dist/features/readModel/queue.js'
import { storeAnswer } from '../../plugins/cwa/dist/features/readModel/store.js'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

/** A published component, read anonymously until its answer is stored; returns its IRI and the stored key. */
async function storedComponent(html: string): Promise<{ iri: string; key: string }> {
  const created = await server.post(
    '/_api/component/html_contents',
    { html, publishedAt: '2020-01-01T00:00:00.000Z' },
    { token: admin },
  )
  expect(created.status).toBe(201)
  const iri: string = created.body['@id']
  await waitFor(async () => (await server.get(iri)).headers.get('cwa-read-model') === 'hit')
  const { rows } = await server.payload.db.pool.query<{ key: string }>(
    'SELECT key FROM _acb_read_model WHERE path = $1',
    [iri.replace(/^\/_api/, '')],
  )
  return { iri, key: rows[0]!.key }
}

/** Edits the published component and publishes the edit through the API: a committed write of this instance. */
async function publishEdit(iri: string, html: string): Promise<void> {
  const draft = await server.patch(iri, { html }, { token: admin })
  expect(draft.status).toBe(200)
  const published = await server.patch(draft.body['@id'], { publishedAt: '2020-01-01T00:00:00.000Z' }, { token: admin })
  expect(published.status).toBe(200)
}

const isLookup = (text: string) => /\bWITH hit AS\b/.test(text)

describe("a read after this instance's own write", () => {
  it('skips the lookup, answers fresh, and its answer is stored (the fence sees the write as committed)', async () => {
    const { iri } = await storedComponent('<p>one</p>')
    await publishEdit(iri, '<p>two</p>')
    const { result: read, sql } = await server.countQueries(() => server.get(iri))
    expect(read.headers.get('cwa-read-model')).toBe('miss')
    expect(read.body.html).toBe('<p>two</p>')
    expect(sql.filter(isLookup)).toHaveLength(0)
    // Its answer, stored by the hinted fill itself (not by a later miss): the next read is served from the store.
    await flushStores(server.payload)
    const again = await server.get(iri)
    expect(again.headers.get('cwa-read-model')).toBe('hit')
    expect(again.text).toBe(read.text)
  })

  it('the next reads look up again (a hint is used once)', async () => {
    const { iri } = await storedComponent('<p>once</p>')
    await publishEdit(iri, '<p>once more</p>')
    await server.get(iri)
    const { sql } = await server.countQueries(() => server.get(iri))
    expect(sql.filter(isLookup)).toHaveLength(1)
  })

  it('a fill that read after the write but before a later write to its tags is not stored (the attack: a stale answer kept by a snapshot taken too late)', async () => {
    const { iri, key } = await storedComponent('<p>v1</p>')
    await publishEdit(iri, '<p>v2</p>')
    const dropped = takeDropped(server.payload, key)
    expect(dropped).not.toBeNull()
    // The fill reads (v2)...
    const read = (await server.get(iri, { token: admin })).text
    // ...a later write commits (it drops nothing: the answer is not stored, so this instance learns nothing)...
    await publishEdit(iri, '<p>v3</p>')
    // ...and the fill stores what it read: refused.
    const stored = await storeAnswer(server.payload, {
      key,
      path: iri.replace(/^\/_api/, ''),
      snapshot: dropped!.snapshot,
      computedAt: dropped!.computedAt,
      tags: [iri],
      answer: { status: 200, headers: [['content-type', 'application/ld+json']], body: read },
    })
    expect(stored).toBe(false)
    expect((await server.get(iri)).body.html).toBe('<p>v3</p>')
  })
})

describe("the write's snapshot with the write counted as committed", () => {
  let clients: pg.Client[] = []
  const connect = async () => {
    const client = new pg.Client({ connectionString: server.databaseUrl })
    await client.connect()
    clients.push(client)
    return client
  }
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.end()))
    clients = []
  })
  const xidOf = async (client: pg.Client) => {
    await client.query('BEGIN')
    return (await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid
  }
  const snapshotOf = async (client: pg.Client) =>
    (await client.query<{ s: string }>('SELECT pg_current_snapshot()::text AS s')).rows[0]!.s
  const visible = async (xid: string, snapshot: string) =>
    (
      await server.payload.db.pool.query<{ v: boolean }>(
        'SELECT pg_visible_in_snapshot($1::xid8, $2::pg_snapshot) AS v',
        [xid, snapshot],
      )
    ).rows[0]!.v

  it('nothing completed since the write began: the write and what committed before it are seen, what runs beside it is not', async () => {
    const [before, beside, writer] = [await connect(), await connect(), await connect()]
    const committedBefore = await xidOf(before)
    await before.query('COMMIT')
    const running = await xidOf(beside)
    const own = await xidOf(writer)
    const snapshot = await snapshotOf(writer)
    await writer.query('COMMIT')
    const adjusted = snapshotWithCommitted(snapshot, own)!
    // The raw snapshot does not count the write (it was running): without the adjustment no such fill would store.
    expect(await visible(own, snapshot)).toBe(false)
    expect(await visible(own, adjusted)).toBe(true)
    expect(await visible(committedBefore, adjusted)).toBe(true)
    expect(await visible(running, adjusted)).toBe(false)
    await beside.query('COMMIT')
  })

  it('transactions completed meanwhile: those before the snapshot are seen, those after it are not', async () => {
    const [beside, writer, other] = [await connect(), await connect(), await connect()]
    const running = await xidOf(beside)
    const own = await xidOf(writer)
    const committedBetween = await xidOf(other)
    await other.query('COMMIT')
    const snapshot = await snapshotOf(writer)
    const committedLater = await xidOf(other)
    await other.query('COMMIT')
    await writer.query('COMMIT')
    const adjusted = snapshotWithCommitted(snapshot, own)!
    expect(await visible(own, adjusted)).toBe(true)
    expect(await visible(committedBetween, adjusted)).toBe(true)
    expect(await visible(running, adjusted)).toBe(false)
    expect(await visible(committedLater, adjusted)).toBe(false)
    await beside.query('COMMIT')
  })
})
