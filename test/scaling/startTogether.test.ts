/**
 * Issue 26, start-up safe in any number: several instances of `npm start` (the start script, admin panel off)
 * started at the same moment on one empty database. Each must come up: the migrations, the plugin's own SQL and
 * the demo seed run once, under a PostgreSQL advisory lock, the others waiting their turn and finding the work done.
 * Without the lock the second instance's migration fails on the first one's `CREATE TYPE` and it exits 1.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import { migrations } from '../../migrations'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { cleanupSites, startSite, stopSite } from '../support/site'
import { startupStep } from '../../src/server/startupLock'

afterAll(() => cleanupSites())

async function query<T>(name: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(name) })
  await client.connect()
  try {
    return (await client.query(text)).rows as T[]
  } finally {
    await client.end()
  }
}

describe('instances started together on an empty database', () => {
  it.each([2, 3])(
    '%i instances all come up; migrations and the demo seed run once; each stops with exit 0',
    async (count) => {
      const name = `cwa_test_together_${count}_${process.pid}`
      await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`))
      try {
        const started = await Promise.allSettled(
          Array.from({ length: count }, () =>
            startSite({ DATABASE_URL: databaseUrl(name), CWA_JOBS_RUNNER: '0' }, 240_000),
          ),
        )
        const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason).slice(0, 2000)] : []))
        expect(failures).toEqual([])
        const sites = started.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof startSite>>>).value)
        // Every instance answers with the one seeded site.
        for (const site of sites) {
          const layouts = await (await fetch(`${site.base}/_api/_/layouts`)).json()
          expect(layouts.totalItems).toBe(1)
        }
        const applied = await query<{ name: string; n: number }>(
          name,
          'SELECT name, count(*)::int AS n FROM payload_migrations GROUP BY name ORDER BY name',
        )
        expect(applied.map((row) => row.name)).toEqual(migrations.map((m) => m.name).sort())
        expect(applied.every((row) => row.n === 1)).toBe(true)
        const pages = await query<{ n: number }>(name, 'SELECT count(*)::int AS n FROM _acb_pages')
        expect(pages[0]!.n).toBe(4)
        // The others said why they waited, in words.
        const waited = sites.filter((site) => site.output().includes('Another instance is starting on this database'))
        expect(waited.length).toBeLessThanOrEqual(count - 1)
        for (const site of sites) expect(await stopSite(site.child)).toBe(0)
      } finally {
        await dropDatabase(name)
      }
    },
    600_000,
  )
})

describe('a start-up step that fails', () => {
  it('says which step and why in one line (the innermost cause, not the SQL it met)', async () => {
    const failed = new Error('Failed query: CREATE TYPE "x" AS ENUM(...)\n  CREATE TABLE ...', {
      cause: new Error('duplicate key value violates unique constraint "pg_type_typname_nsp_index"'),
    })
    await expect(startupStep('the migrations', () => Promise.reject(failed))).rejects.toThrow(
      /^Start-up failed at the migrations: duplicate key value violates unique constraint "pg_type_typname_nsp_index"$/,
    )
    await expect(startupStep('the demo seed', async () => 42)).resolves.toBe(42)
  })
})
