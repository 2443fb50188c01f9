/**
 * runBuiltSql: a statement whose text is built once per key (the build
 * callback runs on the first run only), with placeholders filled from each
 * run's values, in the request's transaction when there is one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type CollectionConfig, createLocalReq, initTransaction, killTransaction } from 'payload'
import { runBuiltSql, sql } from '../../plugins/cwa/dist/core/utils/sql.js'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const notes: CollectionConfig = {
  slug: 'notes',
  access: { create: () => true, read: () => true },
  fields: [{ name: 'title', type: 'text', required: true }],
}

let site: MinimalSite

beforeAll(async () => {
  site = await startMinimalSite({ collections: [notes] })
  for (const title of ['a', 'b', 'c']) await site.payload.create({ collection: 'notes', data: { title } })
})
afterAll(async () => {
  await site?.close()
})

describe('runBuiltSql', () => {
  it('builds the text once per key and fills the placeholders of every run', async () => {
    let builds = 0
    const build = () => {
      builds++
      return sql`SELECT title FROM notes WHERE title = ANY(${sql.placeholder('titles')}::text[]) ORDER BY title`
    }
    const first = await runBuiltSql<{ title: string }>(site.payload, 'test:titles', build, { titles: ['a', 'c'] })
    const second = await runBuiltSql<{ title: string }>(site.payload, 'test:titles', build, { titles: ['b'] })
    expect(first.map((r) => r.title)).toEqual(['a', 'c'])
    expect(second.map((r) => r.title)).toEqual(['b'])
    expect(builds).toBe(1)
  })

  it("runs in the request's transaction: it sees that transaction's uncommitted rows", async () => {
    const req = await createLocalReq({}, site.payload)
    await initTransaction(req)
    try {
      await site.payload.create({ collection: 'notes', data: { title: 'uncommitted' }, req })
      const build = () => sql`SELECT count(*)::int AS n FROM notes WHERE title = ${sql.placeholder('title')}`
      const inside = await runBuiltSql<{ n: number }>(site.payload, 'test:count', build, { title: 'uncommitted' }, req)
      const outside = await runBuiltSql<{ n: number }>(site.payload, 'test:count', build, { title: 'uncommitted' })
      expect({ inside: inside[0]!.n, outside: outside[0]!.n }).toEqual({ inside: 1, outside: 0 })
    } finally {
      await killTransaction(req)
    }
  })
})
