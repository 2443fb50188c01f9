/**
 * A race found in CI (test/scaling/startTogether.test.ts, 3 instances, a loaded machine): one instance ran the
 * migration 20261123_141000_integrity while another, waiting for the start-up lock, installed the same route-target
 * index from its Payload's onInit (plugins/cwa/features/routes/targetIndexes.ts, under its own advisory lock), and
 * the migration's `CREATE UNIQUE INDEX IF NOT EXISTS` failed on PostgreSQL's catalog ("duplicate key value violates
 * unique constraint pg_class_relname_nsp_index"): that instance exited 1. Replayed here deterministically: the
 * installer's transaction holds its lock and an uncommitted index; the migration, in its own transaction, must wait
 * for it and then find the index, not fail.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PgDialect } from '@payloadcms/db-postgres/drizzle/pg-core'
import pg from 'pg'
import { up } from '../../migrations/20261123_141000_integrity'
import { createTestDatabase, databaseUrl, releaseDatabase } from '../support/database'

const INDEX = '_acb_routes_rels_acb_blog_article_datas_unique'
let database: string
const clients: pg.Client[] = []

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl(database) })
  await client.connect()
  clients.push(client)
  return client
}

beforeAll(async () => {
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  const client = await connect()
  await client.query(`DROP INDEX IF EXISTS "${INDEX}"`)
})
afterAll(async () => {
  for (const client of clients) await client.end().catch(() => {})
  if (database) await releaseDatabase(database)
})

describe('the integrity migration beside the start-time index installer', () => {
  it('waits for an index being created by another instance, then finds it instead of failing', async () => {
    const installer = await connect()
    await installer.query('BEGIN')
    await installer.query(`SELECT pg_advisory_xact_lock(hashtextextended('cwa:routes:target_indexes', 0))`)
    await installer.query(
      `CREATE UNIQUE INDEX IF NOT EXISTS "${INDEX}" ON "_acb_routes_rels" USING btree ("_acb_blog_article_datas_id") WHERE "path" = 'pageData' AND "_acb_blog_article_datas_id" IS NOT NULL`,
    )
    const migrating = await connect()
    const dialect = new PgDialect()
    const db = {
      execute: (query: Parameters<PgDialect['sqlToQuery']>[0]) => {
        const { sql, params } = dialect.sqlToQuery(query)
        return migrating.query(sql, params)
      },
    }
    await migrating.query('BEGIN')
    let settled = false
    const migration = up({ db } as never).then(
      () => ((settled = true), 'done'),
      (error: Error) => ((settled = true), error.message),
    )
    await new Promise((resolve) => setTimeout(resolve, 300))
    // Still waiting on the installer's lock, not failed.
    expect(settled).toBe(false)
    await installer.query('COMMIT')
    expect(await migration).toBe('done')
    await migrating.query('COMMIT')
    const { rows } = await migrating.query(`SELECT count(*)::int AS n FROM pg_indexes WHERE indexname = $1`, [INDEX])
    expect(rows[0].n).toBe(1)
  })
})
