/**
 * Named prepared statements: the site's repeated parameterised queries are
 * parsed and planned once per connection (pg_prepared_statements lists
 * them), from a text's second sending; statements without parameters stay
 * unnamed, a connection keeps at most its cap of names; `preparedStatements: false` turns it off.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createLocalReq, initTransaction, killTransaction } from 'payload'
import { resolveOptions } from 'payload-cwa'
import pg from 'pg'
import { canonicalAliases, nameStatements } from '../../plugins/cwa/dist/core/utils/preparedStatements.js'
import { runSql, sql } from '../../plugins/cwa/dist/core/utils/sql.js'
import { databaseUrl } from '../support/database'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

let on: MinimalSite

beforeAll(async () => {
  on = await startMinimalSite()
})
afterAll(async () => {
  await on?.close()
})

/** Reads layouts twice on one connection (a transaction) and lists the statements that connection prepared. */
async function preparedAfterReads(site: MinimalSite): Promise<string[]> {
  const req = await createLocalReq({}, site.payload)
  await initTransaction(req)
  try {
    for (let i = 0; i < 2; i++)
      await site.payload.find({ collection: 'layouts', where: { reference: { equals: `x${i}` } }, req, depth: 0 })
    const rows = await runSql<{ name: string }>(site.payload, sql`SELECT name FROM pg_prepared_statements`, req)
    return rows.map((r) => r.name)
  } finally {
    await killTransaction(req)
  }
}

describe('prepared statements', () => {
  it('Payload reads run as named statements, parsed once per connection', async () => {
    const names = await preparedAfterReads(on)
    expect(names.filter((n) => n.startsWith('cwa_')).length).toBeGreaterThan(0)
    // The same query text twice is one statement, not two.
    expect(new Set(names).size).toBe(names.length)
  })

  it('a join field read (Payload aliases its subquery with a random name) is the same statement on every request', async () => {
    const req = await createLocalReq({}, on.payload)
    await initTransaction(req)
    try {
      for (let i = 0; i < 3; i++)
        await on.payload.find({
          collection: 'component_groups',
          where: { reference: { equals: `g${i}` } },
          req,
          depth: 0,
        })
      const rows = await runSql<{ statement: string }>(
        on.payload,
        sql`SELECT statement FROM pg_prepared_statements WHERE statement LIKE ${'%component_groups%cwa_alias_1%'}`,
        req,
      )
      expect(rows).toHaveLength(1)
    } finally {
      await killTransaction(req)
    }
  })

  it('renames random aliases in order of appearance, the same alias to the same name, and leaves other names alone', () => {
    const a = '"0f37c23c_788a_42da_b894_056f8bb3b214"'
    const b = '"9e659b2a_c039_4226_a46b_04eb9847afb5"'
    expect(
      canonicalAliases(`select ${a}.id from t ${a} join (select 1) ${b} on ${b}.x = "_acb_pages"."id" where "id" = $1`),
    ).toBe(
      'select "cwa_alias_1".id from t "cwa_alias_1" join (select 1) "cwa_alias_2" on "cwa_alias_2".x = "_acb_pages"."id" where "id" = $1',
    )
  })

  it('on by default; `preparedStatements: false` turns it off', () => {
    expect(resolveOptions({}).preparedStatements).toBe(true)
    expect(resolveOptions({ preparedStatements: false }).preparedStatements).toBe(false)
  })

  it('a connection keeps at most its cap of names; statements without parameters stay unnamed; results are unchanged', async () => {
    const client = new pg.Client({ connectionString: databaseUrl(on.database) })
    await client.connect()
    try {
      nameStatements(client as never, 2)
      // Each text twice: a statement is named from its second sending.
      for (let round = 0; round < 2; round++) {
        expect((await client.query('SELECT $1::int + 1 AS n', [1])).rows).toEqual([{ n: 2 }])
        expect((await client.query({ text: 'SELECT $1::int + 2 AS n', values: [1] })).rows).toEqual([{ n: 3 }])
        expect((await client.query('SELECT $1::int + 3 AS n', [1])).rows).toEqual([{ n: 4 }]) // over the cap: unnamed
      }
      expect((await client.query('SELECT $1::int + 1 AS n', [5])).rows).toEqual([{ n: 6 }]) // reuses its name
      expect((await client.query('SELECT 42 AS n')).rows).toEqual([{ n: 42 }]) // no parameters: unnamed
      const { rows } = await client.query('SELECT statement FROM pg_prepared_statements ORDER BY statement')
      expect(rows.map((r) => r.statement)).toEqual(['SELECT $1::int + 1 AS n', 'SELECT $1::int + 2 AS n'])
    } finally {
      await client.end()
    }
  })

  it('a text sent once is not named: texts that never repeat (a join subquery under a random alias) take no slot from those that do', async () => {
    const client = new pg.Client({ connectionString: databaseUrl(on.database) })
    await client.connect()
    try {
      nameStatements(client as never, 2)
      for (let i = 0; i < 5; i++)
        expect((await client.query(`SELECT $1::int AS "alias_${i}_${Date.now()}"`, [i])).rowCount).toBe(1)
      expect((await client.query('SELECT statement FROM pg_prepared_statements')).rows).toEqual([])
      // A repeated text still gets one of the two slots.
      for (let i = 0; i < 2; i++) await client.query('SELECT $1::int * 2 AS n', [i])
      const { rows } = await client.query('SELECT statement FROM pg_prepared_statements')
      expect(rows.map((r) => r.statement)).toEqual(['SELECT $1::int * 2 AS n'])
    } finally {
      await client.end()
    }
  })
})
