import pg from 'pg'
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { claimPooled, recycle } from './databasePool'

/** Admin connection to the test PostgreSQL server (TEST_PG_URL, default the local trust-auth server). */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432'

export function databaseUrl(name: string): string {
  return `${TEST_PG_URL.replace(/\/+$/, '')}/${name}`
}

export async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** Template database name: changes whenever a migration changes, so schemas never go stale. */
export function templateName(root: string): string {
  const dir = path.join(root, 'migrations')
  const hash = createHash('sha1')
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file), 'utf8'))
  return `cwa_test_tpl_${hash.digest('hex').slice(0, 12)}`
}

/**
 * A database in the migrated template's state (fast: no migration per test file): a recycled one from the pool
 * (test/support/databasePool.ts) when there is one, else a fresh copy of the template.
 */
export async function createTestDatabase(template: string): Promise<string> {
  // The creation time in the name lets a later run drop leftovers without touching databases in use.
  const name = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
  await withAdminClient(async (c) => {
    if (!(await claimPooled(c, template, name))) await c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)
  })
  return name
}

/** Done with a test database: back to the pool in the template's state when it can be, else dropped. */
export async function releaseDatabase(name: string): Promise<void> {
  const template = process.env.CWA_TEST_TEMPLATE
  const recycled = template ? await withAdminClient((c) => recycle(c, databaseUrl(name), name, template)) : false
  if (!recycled) await dropDatabase(name)
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdminClient((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))
}

/** Seconds since the epoch encoded in a test database name, or null for other names. */
export function testDatabaseCreatedAt(name: string): number | null {
  const match = /^cwa_test_(\d{10})_[0-9a-f]{8}$/.exec(name)
  return match ? Number(match[1]) : null
}

/** What the sessions of a database are doing (for a report when a test's shutdown stalls). */
export async function databaseActivity(name: string): Promise<Array<Record<string, unknown>>> {
  return withAdminClient(async (c) => {
    const { rows } = await c.query(
      `SELECT pid, state, wait_event_type, wait_event, now() - query_start AS running_for, left(query, 300) AS query
         FROM pg_stat_activity WHERE datname = $1 ORDER BY query_start`,
      [name],
    )
    return rows
  })
}
