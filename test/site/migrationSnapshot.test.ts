/**
 * The committed migrations and the latest `.json` snapshot describe the
 * current config: Payload's generator, run against them, finds nothing to
 * add. A merge that brings a hand-written migration without a snapshot (or a
 * field change without its migration) fails here, before `npm run
 * migrate:create` would repeat or miss a change (`--snapshot` refreshes the
 * latest snapshot after a hand-written migration).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { type TestServer, startTestServer } from '../support/server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('migration snapshot', () => {
  it('the latest snapshot matches the schema of the current config', async () => {
    const dir = path.join(process.cwd(), 'migrations')
    const latest = readdirSync(dir)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .pop()!
    const latestMigration = readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
      .sort()
      .pop()!
    // The snapshot belongs to the latest migration: one written after it would leave that migration's changes out.
    expect(latest.slice(0, -5)).toBe(latestMigration.slice(0, -3))
    const db = server.payload.db as unknown as {
      schema: unknown
      requireDrizzleKit(): {
        generateDrizzleJson(schema: unknown): Promise<{ version: string }>
        generateMigration(a: unknown, b: unknown): Promise<string[]>
        upSnapshot?(s: unknown): unknown
      }
    }
    const kit = db.requireDrizzleKit()
    const after = await kit.generateDrizzleJson(db.schema)
    let before = JSON.parse(readFileSync(path.join(dir, latest), 'utf8')) as { version: string }
    if (kit.upSnapshot && before.version < after.version) before = kit.upSnapshot(before) as { version: string }
    expect(await kit.generateMigration(before, after)).toEqual([])
  })
})
