/**
 * Issue 25, the read model's fence, deterministically: a fill reads under the snapshot its lookup took, then
 * stores. A write that commits between the two (or is still under way when the fill stores) must keep the fill's
 * answer out of the store, or the store would serve what the write replaced until the next write; a fill stored
 * before the write's invalidation is deleted by it. Each step is driven by hand (lookup, write, store), so the
 * interleaving is the one named, every run.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import { lookup, storeAnswer, storeAnswers } from '../../plugins/cwa/dist/features/readModel/store.js'
import { readModelTables } from '../../plugins/cwa/dist/features/readModel/schema.js'
import { bucketsOf } from '../../plugins/cwa/dist/features/readModel/tags.js'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string
let component: string

const answer = (body: string) => ({
  status: 200,
  headers: [['content-type', 'application/ld+json']] as Array<[string, string]>,
  body,
})

/** A transaction, left open, that has run a write's invalidation of `tags` (it holds their fence rows). */
async function writerInvalidating(tags: string[]): Promise<pg.Client> {
  const { invalidate } = readModelTables(server.payload)
  const writer = new pg.Client({ connectionString: server.databaseUrl })
  await writer.connect()
  await writer.query('BEGIN')
  await writer.query(`SELECT "${invalidate}"($1::text[], '{}'::timestamptz[])`, [tags])
  return writer
}

/** A fill of `key`, read under `snapshot`, storing `body` tagged with the component. */
const storeFill = (key: string, snapshot: string, body: string) =>
  storeAnswer(server.payload, {
    key,
    path: 'fence',
    snapshot,
    computedAt: new Date(),
    tags: [component],
    answer: answer(body),
  })

/** What `promise` settles to, or a failure naming the wait when it takes longer than `ms`. */
function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms)
  })
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** Edits the published component and publishes the edit: one committed write of its content. */
async function publishEdit(html: string): Promise<void> {
  const draft = await server.patch(component, { html }, { token: admin })
  expect(draft.status).toBe(200)
  const published = await server.patch(draft.body['@id'], { publishedAt: '2020-01-01T00:00:00.000Z' }, { token: admin })
  expect(published.status).toBe(200)
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  const created = await server.post(
    '/_api/component/html_contents',
    { html: '<p>v1</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
    { token: admin },
  )
  component = created.body['@id']
})
afterAll(async () => {
  await server?.close()
})

describe('the fence between a fill and a write', () => {
  it('a fill that read before a write committed is not stored after it (the attack: a stale answer served until the next write)', async () => {
    const key = 'fence-test-committed'
    const found = await lookup(server.payload, key)
    expect('snapshot' in found).toBe(true)
    const before = (await server.get(component, { token: admin })).text
    // The write commits between the fill's read and its store.
    await publishEdit('<p>v2</p>')
    const stored = await storeFill(key, (found as { snapshot: string }).snapshot, before)
    expect(stored).toBe(false)
    expect('hit' in (await lookup(server.payload, key))).toBe(false)
  })

  it('a fill storing while a write holds its tags is refused at once, without waiting for the write', async () => {
    const key = 'fence-test-in-flight'
    const found = (await lookup(server.payload, key)) as { snapshot: string }
    const writer = await writerInvalidating([component])
    try {
      // Settled while the writer is still open: a fill never waits for a write.
      expect(await settledWithin(storeFill(key, found.snapshot, '{"old":true}'), 2000)).toBe(false)
      await writer.query('COMMIT')
      expect('hit' in (await lookup(server.payload, key))).toBe(false)
    } finally {
      await writer.end()
    }
  })

  it('a fill never waits on a row a write deleted, so a write never deadlocks with it (the attack on editors: a save answered 500 "deadlock detected" under read load)', async () => {
    const key = 'fence-test-deadlock'
    const first = (await lookup(server.payload, key)) as { snapshot: string }
    expect(await storeFill(key, first.snapshot, '{"v":5}')).toBe(true)
    // A tag in another fence bucket than the component's.
    let other = `${component}?other`
    while (bucketsOf([other])[0] === bucketsOf([component])[0]) other += '!'
    // The write drops the stored answer (it holds its row) and the component's bucket...
    const writer = await writerInvalidating([component])
    try {
      // ...a fill of the same key, tagged with the other bucket, gives up instead of waiting for the row...
      const fill = storeAnswer(server.payload, {
        key,
        path: 'fence',
        snapshot: first.snapshot,
        computedAt: new Date(),
        tags: [other],
        answer: answer('{"v":6}'),
      })
      expect(await settledWithin(fill, 2000)).toBe(false)
      // ...so the write's next statement, taking the other bucket, is not stuck behind the fill's share lock.
      const { invalidate } = readModelTables(server.payload)
      await writer.query(`SELECT "${invalidate}"($1::text[], '{}'::timestamptz[])`, [[other]])
      await writer.query('COMMIT')
    } finally {
      await writer.end()
    }
    expect('hit' in (await lookup(server.payload, key))).toBe(false)
  })

  it('a fill stored before the write is deleted by the write; a fill after it is stored and served', async () => {
    const key = 'fence-test-before'
    const found = (await lookup(server.payload, key)) as { snapshot: string }
    expect(await storeFill(key, found.snapshot, '{"v":3}')).toBe(true)
    expect('hit' in (await lookup(server.payload, key))).toBe(true)
    await publishEdit('<p>v3</p>')
    expect('hit' in (await lookup(server.payload, key))).toBe(false)
    const after = (await lookup(server.payload, key)) as { snapshot: string }
    expect(await storeFill(key, after.snapshot, '{"v":3}')).toBe(true)
    const hit = await lookup(server.payload, key)
    expect('hit' in hit && hit.hit.body).toBe('{"v":3}')
  })

  it('fills stored together (one statement for the misses of a moment) are each judged on their own snapshot and tags', async () => {
    const stale = 'fence-test-batch-stale'
    const fresh = 'fence-test-batch-fresh'
    const before = (await lookup(server.payload, stale)) as { snapshot: string }
    await publishEdit('<p>v4</p>')
    const after = (await lookup(server.payload, fresh)) as { snapshot: string }
    // A tag in another fence bucket than the component's: a write to the component does not concern it.
    let unrelated = `${component}?unrelated`
    while (bucketsOf([unrelated])[0] === bucketsOf([component])[0]) unrelated += '!'
    const fill = (key: string, snapshot: string, tags: string[]) => ({
      key,
      path: 'fence',
      snapshot,
      computedAt: new Date(),
      tags,
      answer: answer(`{"key":"${key}"}`),
    })
    const stored = await storeAnswers(server.payload, [
      fill(stale, before.snapshot, [component]),
      fill(fresh, after.snapshot, [component]),
      fill('fence-test-batch-unrelated', before.snapshot, [unrelated]),
    ])
    expect(stored).toEqual([false, true, true])
    expect('hit' in (await lookup(server.payload, stale))).toBe(false)
    const hit = await lookup(server.payload, fresh)
    expect('hit' in hit && hit.hit.body).toBe(`{"key":"${fresh}"}`)
  })

  it('a write rolled back leaves the stored answers and lets fills store', async () => {
    const key = 'fence-test-rollback'
    const found = (await lookup(server.payload, key)) as { snapshot: string }
    const writer = await writerInvalidating([component])
    try {
      await writer.query('ROLLBACK')
    } finally {
      await writer.end()
    }
    expect(await storeFill(key, found.snapshot, '{"v":4}')).toBe(true)
  })
})

describe('the fence buckets', () => {
  it('a write takes, in SQL, the very buckets a fill names in JavaScript (tags.ts): else neither would see the other', async () => {
    const { invalidate, fence } = readModelTables(server.payload)
    const tags = Array.from({ length: 300 }, (_, i) => `/_api/component/html_contents/${i}-${Math.random()} é`)
    const writer = new pg.Client({ connectionString: server.databaseUrl })
    await writer.connect()
    try {
      await writer.query('BEGIN')
      await writer.query(`SELECT "${invalidate}"($1::text[], '{}'::timestamptz[])`, [tags])
      const { rows } = await writer.query<{ bucket: number }>(
        `SELECT bucket FROM "${fence}" WHERE xid = pg_current_xact_id() ORDER BY bucket`,
      )
      expect(rows.map((row) => row.bucket)).toEqual([...bucketsOf(tags)].sort((a, b) => a - b))
    } finally {
      await writer.query('ROLLBACK')
      await writer.end()
    }
  })
})
