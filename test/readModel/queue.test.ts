/**
 * Issue 25, the read model's stores: a miss's answer is stored after its response, gathered with the other
 * misses of the next few milliseconds into one statement (a publish makes many reads cold at once: one store and
 * one commit for them, not one each), each still judged by the fence on its own (fence.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { flushStores, storeLater } from '../../plugins/cwa/dist/features/readModel/queue.js'
import { lookup } from '../../plugins/cwa/dist/features/readModel/store.js'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

/** Queues fills of `keys`, each read under a snapshot of its own, and counts the store statements sent for them. */
async function queued(keys: string[]): Promise<number> {
  const fills = await Promise.all(
    keys.map(async (key) => ({ key, found: (await lookup(server.payload, key)) as { snapshot: string } })),
  )
  const { sql } = await server.countQueries(async () => {
    for (const { key, found } of fills)
      storeLater(server.payload, key, 20, () => ({
        key,
        path: `queue/${key}`,
        snapshot: found.snapshot,
        computedAt: new Date(),
        tags: [`/_api/queue-test/${key}`],
        answer: { status: 200, headers: [['content-type', 'application/ld+json']], body: `{"key":"${key}"}` },
      }))
    await flushStores(server.payload)
  })
  return sql.filter((text) => /INSERT INTO "\w*read_model"/.test(text)).length
}

async function storedBody(key: string): Promise<string | null> {
  const found = await lookup(server.payload, key)
  return 'hit' in found ? found.hit.body : null
}

describe('stores gathered in batches', () => {
  it('the misses of one moment are stored in one statement, every one of them', async () => {
    const keys = Array.from({ length: 10 }, (_, i) => `queue-test-moment-${i}`)
    expect(await queued(keys)).toBe(1)
    for (const key of keys) expect(await storedBody(key)).toBe(`{"key":"${key}"}`)
  })

  it('a batch is bounded: 40 misses take two statements (at most 32 answers each)', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `queue-test-bound-${i}`)
    expect(await queued(keys)).toBe(2)
    for (const key of keys) expect(await storedBody(key)).toBe(`{"key":"${key}"}`)
  })

  it('two misses of one read in the same moment are one row (an upsert touches a row once per statement)', async () => {
    expect(await queued(['queue-test-twice', 'queue-test-twice'])).toBe(1)
    expect(await storedBody('queue-test-twice')).toBe('{"key":"queue-test-twice"}')
  })

  it('a miss through the API is stored within moments of its response, without a flush', async () => {
    const created = await server.post(
      '/_api/component/html_contents',
      { html: '<p>queued</p>', publishedAt: '2020-01-01T00:00:00.000Z' },
      { token: await server.tokenFor('ROLE_ADMIN') },
    )
    const first = await server.get(created.body['@id'])
    expect(first.headers.get('cwa-read-model')).toBe('miss')
    const stored = await waitFor(async () => {
      const read = await server.get(created.body['@id'])
      return read.headers.get('cwa-read-model') === 'hit' && read
    })
    expect(stored.text).toBe(first.text)
  })
})
