/**
 * afterCommit(req, fn): side effects wait for the commit of the request's
 * transaction, on every path that opens one (our own inTransaction, a Payload
 * operation through the Local API or Payload REST with a hook queuing the
 * callback), run once, in order, and are dropped on rollback.
 * beforeCommit(req, key, item, flush): work gathered per key over a whole
 * transaction, flushed once, inside it, just before it commits.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { commitTransaction, type CollectionConfig, createLocalReq, initTransaction, killTransaction } from 'payload'
import { afterCommit, beforeCommit } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

/** What each after-commit callback saw: the label, and whether the row was visible to another connection then. */
const seen: Array<{ label: string; committed: boolean }> = []

let site: MinimalSite

/** Is the note visible outside the transaction (a separate connection)? */
async function visible(title: string): Promise<boolean> {
  return (await site.sql('SELECT 1 FROM notes WHERE title = $1', [title])).length === 1
}

const notes: CollectionConfig = {
  slug: 'notes',
  access: { create: () => true, read: () => true, update: () => true, delete: () => true },
  fields: [{ name: 'title', type: 'text', required: true }],
  hooks: {
    afterChange: [
      async ({ doc, req }) => {
        const title = String(doc.title)
        await afterCommit(req, async () => {
          seen.push({ label: title, committed: await visible(title) })
        })
        if (title.startsWith('fail')) throw new Error('the hook refuses this note')
        return doc
      },
    ],
  },
}

beforeAll(async () => {
  site = await startMinimalSite({ collections: [notes] })
})
afterAll(async () => {
  await site?.close()
})

describe('afterCommit', () => {
  it('a Local API create: the callback runs once, after the row is committed', async () => {
    seen.length = 0
    await site.payload.create({ collection: 'notes', data: { title: 'local' } })
    expect(seen).toEqual([{ label: 'local', committed: true }])
  })

  it('Payload REST: the callback runs after commit; a failing hook rolls back and the callback never runs', async () => {
    seen.length = 0
    const ok = await fetch(`${site.url}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'rest' }),
    })
    expect(ok.status).toBe(201)
    const failed = await fetch(`${site.url}/api/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'fail-rest' }),
    })
    expect(failed.status).toBeGreaterThanOrEqual(400)
    expect(seen).toEqual([{ label: 'rest', committed: true }])
    expect(await visible('fail-rest')).toBe(false)
  })

  it('several writes in one outer transaction: callbacks wait for the outer commit and run in order', async () => {
    seen.length = 0
    const req = await createLocalReq({}, site.payload)
    await initTransaction(req)
    await site.payload.create({ collection: 'notes', data: { title: 'outer-1' }, req })
    await site.payload.create({ collection: 'notes', data: { title: 'outer-2' }, req })
    // The inner operations did not commit: nothing ran yet.
    expect(seen).toEqual([])
    await commitTransaction(req)
    expect(seen).toEqual([
      { label: 'outer-1', committed: true },
      { label: 'outer-2', committed: true },
    ])
  })

  it('an outer rollback drops every queued callback', async () => {
    seen.length = 0
    const req = await createLocalReq({}, site.payload)
    await initTransaction(req)
    await site.payload.create({ collection: 'notes', data: { title: 'rolled-back' }, req })
    await killTransaction(req)
    expect(seen).toEqual([])
    expect(await visible('rolled-back')).toBe(false)
    // A later commit on another request does not run them either.
    await site.payload.create({ collection: 'notes', data: { title: 'after' } })
    expect(seen).toEqual([{ label: 'after', committed: true }])
  })

  it('without a transaction the callback runs at once; a failing callback is logged, not thrown', async () => {
    const req = await createLocalReq({}, site.payload)
    let ran = false
    await afterCommit(req, () => {
      ran = true
    })
    expect(ran).toBe(true)
    await expect(afterCommit(req, () => Promise.reject(new Error('side effect down')))).resolves.toBeUndefined()
  })
})

describe('beforeCommit', () => {
  it('gathers the items of one key over the transaction and flushes them once, inside it, before the commit', async () => {
    const flushes: Array<{ items: string[]; inside: boolean }> = []
    const req = await createLocalReq({}, site.payload)
    await initTransaction(req)
    const flush = async (items: string[]) => {
      // Written in the transaction: invisible to another connection until the commit.
      await site.payload.create({ collection: 'notes', data: { title: `flushed ${items.join('+')}` }, req })
      flushes.push({ items, inside: !(await visible(`flushed ${items.join('+')}`)) })
    }
    await beforeCommit(req, 'test:key', 'a', flush)
    await site.payload.create({ collection: 'notes', data: { title: 'between' }, req })
    await beforeCommit(req, 'test:key', 'b', flush)
    expect(flushes).toEqual([])
    await commitTransaction(req)
    expect(flushes).toEqual([{ items: ['a', 'b'], inside: true }])
    expect(await visible('flushed a+b')).toBe(true)
  })

  it('a rollback drops the queued work; a failing flush refuses the commit; without a transaction it flushes at once', async () => {
    let flushed = 0
    const req = await createLocalReq({}, site.payload)
    await initTransaction(req)
    await beforeCommit(req, 'test:dropped', 1, async () => void flushed++)
    await killTransaction(req)
    const next = await createLocalReq({}, site.payload)
    await initTransaction(next)
    await site.payload.create({ collection: 'notes', data: { title: 'refused by its flush' }, req: next })
    await beforeCommit(next, 'test:failing', 1, () => Promise.reject(new Error('derived data could not be written')))
    await expect(commitTransaction(next)).rejects.toThrow('derived data could not be written')
    await killTransaction(next)
    expect(await visible('refused by its flush')).toBe(false)
    expect(flushed).toBe(0)
    await beforeCommit(await createLocalReq({}, site.payload), 'test:now', 1, async () => void flushed++)
    expect(flushed).toBe(1)
  })
})
