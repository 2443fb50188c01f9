/**
 * Test preparation, run once per test run (by jest's global setup):
 * a migrated template database and a JWT key pair. Prints the environment
 * the test files need, as JSON on the last line.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { loadJwtKeys } from '../../plugins/cwa/dist/session/keys.js'
import { randomBytes } from 'node:crypto'
import { databaseUrl, releaseDatabase, templateName, testDatabaseCreatedAt, withAdminClient } from './database'
import { recordTemplateState, stateFile } from './databasePool'

const root = process.cwd()
const env: Record<string, string> = {
  PAYLOAD_SECRET: 'test-secret-not-for-production',
  CWA_DATA_DIR: path.join(root, '.data', 'test'),
  JWT_SECRET_KEY: path.join(root, '.data', 'test', 'jwt', 'private.pem'),
  JWT_PUBLIC_KEY: path.join(root, '.data', 'test', 'jwt', 'public.pem'),
  JWT_PASSPHRASE: 'test-passphrase',
  SEED_DEMO: '0',
  // Query budgets measure the worst case: the session check asks the database on every request
  // (test/session/tokenRevocation.test.ts turns the cache on where it tests it).
  CWA_SESSION_CHECK_CACHE_MS: '0',
}
Object.assign(process.env, env)
mkdirSync(env.CWA_DATA_DIR!, { recursive: true })
await loadJwtKeys(process.env)

const template = templateName(root)
env.CWA_TEST_TEMPLATE = template
const existing = await withAdminClient(async (c) => {
  // Leftovers of crashed runs older than two hours go; databases of runs in progress stay.
  const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'cwa_test_%'")
  const cutoff = Date.now() / 1000 - 2 * 3600
  for (const { datname } of rows) {
    const createdAt = testDatabaseCreatedAt(datname)
    if (createdAt !== null && createdAt < cutoff) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
  }
  // Recycled databases of other templates (test/support/databasePool.ts) can never be claimed again.
  const pooled = await c.query<{ datname: string }>(
    "SELECT datname FROM pg_database WHERE datname LIKE 'cwa\\_pool\\_%'",
  )
  for (const { datname } of pooled.rows)
    if (!datname.startsWith(`cwa_pool_${template.replace(/^cwa_test_tpl_/, '')}_`))
      await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`)
  return rows.some((r) => r.datname === template)
})
if (!existing) {
  // Per process: two test runs (two worktrees) starting at once must not drop each other's build.
  const building = `${template}_b${process.pid}`
  await withAdminClient((c) =>
    c.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`).then(() => c.query(`CREATE DATABASE "${building}"`)),
  )
  const { buildSiteConfig } = await import('../../payload.config')
  const { startPayload } = await import('../../src/server/bootstrap')
  const { closePayload } = await import('../../plugins/cwa/dist/core/utils/closePayload.js')
  const payload = await startPayload({
    config: buildSiteConfig({ databaseUrl: databaseUrl(building) }),
    key: 'template',
  })
  await closePayload(payload)
  await withAdminClient(async (c) => {
    try {
      await c.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`)
    } catch (error) {
      // Another run finished the same template first (42P04 duplicate_database): use that one.
      if ((error as { code?: string }).code !== '42P04') throw error
      await c.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`)
    }
  })
}
// The template's structure and rows, read on a copy (nobody may connect to a template), so that test databases are
// recycled rather than dropped (test/support/databasePool.ts); the copy is the pool's first database.
const copy = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
await withAdminClient((c) => c.query(`CREATE DATABASE "${copy}" TEMPLATE "${template}"`))
await recordTemplateState(databaseUrl(copy), template)
env.CWA_TEST_POOL_STATE = stateFile(template)
process.env.CWA_TEST_TEMPLATE = template
await releaseDatabase(copy)
console.log(JSON.stringify(env))
process.exit(0)
