/**
 * An upgrade from the previous alpha (2.0.0-alpha.0, which apps used as a fork of this site: commit 5459c93): a
 * database migrated with that commit's migrations/ and holding content is started with today's code. The
 * migrations added since run, the plugin reinstalls its own SQL (row counts and their triggers) at start, the
 * content reads through the API as before, and `payload migrate:create` has nothing left to generate: the committed
 * migrations describe the schema of today's plugin and site (the check an app makes after upgrading payload-cwa).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'
import type { Payload } from 'payload'
import { createCwaHandler, schemaReady } from 'payload-cwa'
import { closePayload } from '../../plugins/cwa/dist/core/utils/closePayload.js'
import { buildSiteConfig } from '../../payload.config'
import { migrations as current } from '../../migrations'
import { startPayload } from '../../src/server/bootstrap'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'

const root = process.cwd()
/** The previous alpha: the last commit before the package (issue 24). */
const PREVIOUS_ALPHA = '5459c93'

let database: string
let oldDir: string
let payload: Payload
let pageId: string
let oldNames: string[]

async function sql<T = Record<string, unknown>>(query: string, values: unknown[] = []): Promise<T[]> {
  const pg = (await import('pg')).default
  const client = new pg.Client({ connectionString: databaseUrl(database) })
  await client.connect()
  try {
    return (await client.query(query, values)).rows as T[]
  } finally {
    await client.end()
  }
}

beforeAll(async () => {
  database = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
  await withAdminClient((c) => c.query(`CREATE DATABASE "${database}"`))
  // The previous alpha's migrations as its commit has them, with the site code they import (a clone with its history).
  oldDir = path.join(root, '.data', 'package-test', `alpha0-${process.pid}`)
  rmSync(oldDir, { recursive: true, force: true })
  mkdirSync(oldDir, { recursive: true })
  const archive = execFileSync(
    'git',
    ['archive', '--format=tar', PREVIOUS_ALPHA, 'migrations', 'collections/richText'],
    { cwd: root, maxBuffer: 256 * 1024 * 1024 },
  )
  execFileSync('tar', ['x', '-C', oldDir], { input: new Uint8Array(archive) })
  const old = (await import(path.join(oldDir, 'migrations', 'index.ts'))) as { migrations: Array<{ name: string }> }
  oldNames = old.migrations.map((m) => m.name)

  // The previous alpha's database: its migrations, its start (row counts), content written by its editors.
  const before = await startPayload({
    config: buildSiteConfig({ databaseUrl: databaseUrl(database) }),
    key: `${database}-old`,
    migrate: false,
  })
  await (before.db as unknown as { migrate(args: { migrations: unknown[] }): Promise<void> }).migrate({
    migrations: old.migrations,
  })
  await schemaReady(before)
  const layout = await before.create({
    collection: 'layouts',
    data: { reference: 'alpha0-layout', uiComponent: 'PrimaryLayout' } as never,
    overrideAccess: true,
  })
  const page = await before.create({
    collection: 'pages',
    data: {
      reference: 'alpha0-page',
      title: 'Written before the upgrade',
      uiComponent: 'PrimaryPageTemplate',
      layout: layout.id,
    } as never,
    overrideAccess: true,
  })
  pageId = String(page.id)
  await closePayload(before)

  // The upgrade: today's code starts on it (npm start migrates the same way).
  payload = await startPayload({
    config: buildSiteConfig({ databaseUrl: databaseUrl(database) }),
    key: `${database}-new`,
  })
}, 300_000)

afterAll(async () => {
  if (payload) await closePayload(payload)
  if (database) await dropDatabase(database)
  if (oldDir) rmSync(oldDir, { recursive: true, force: true })
}, 60_000)

describe('an upgrade from the previous alpha', () => {
  it("runs the migrations added since, after the previous alpha's", async () => {
    expect(oldNames.length).toBeGreaterThan(5)
    const names = current.map((m) => m.name)
    // Migrations are append-only: the previous alpha's list is where today's starts.
    expect(names.slice(0, oldNames.length)).toEqual(oldNames)
    const ran = await sql<{ name: string }>("SELECT name FROM payload_migrations WHERE name <> 'dev' ORDER BY name")
    expect(ran.map((r) => r.name)).toEqual([...names].sort())
  })

  it('keeps the content, served through the API, with the row counts reinstalled by the plugin', async () => {
    const handler = createCwaHandler({ payload })
    const read = await handler(
      new Request(`http://localhost/_api/_/pages/${pageId}`, { headers: { accept: 'application/ld+json' } }),
    )
    expect(read.status).toBe(200)
    expect((await read.json()).title).toBe('Written before the upgrade')
    const triggers = await sql<{ tgname: string }>(
      "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = '_acb_routes'::regclass ORDER BY tgname",
    )
    expect(triggers.map((t) => t.tgname)).toEqual([
      '_acb_counts_delete',
      '_acb_counts_insert',
      '_acb_counts_truncate',
      '_acb_counts_update',
    ])
  })

  it('leaves `payload migrate:create` nothing to generate: the committed migrations hold the whole schema', async () => {
    // What migrate:create computes: the latest snapshot in migrations/ against the schema of today's config.
    const dir = path.join(root, 'migrations')
    const latest = readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .reverse()[0]!
    const db = payload.db as unknown as {
      schema: unknown
      requireDrizzleKit(): {
        generateDrizzleJson(schema: unknown): Promise<unknown>
        generateMigration(a: unknown, b: unknown): Promise<string[]>
      }
    }
    const kit = db.requireDrizzleKit()
    const statements = await kit.generateMigration(
      JSON.parse(readFileSync(path.join(dir, latest), 'utf8')),
      await kit.generateDrizzleJson(db.schema),
    )
    expect(statements).toEqual([])
  })
})
