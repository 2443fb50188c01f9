/**
 * `npm test` on a machine without a database server: with TEST_PG_URL unset
 * and nothing answering on the local port, the test runner starts an
 * embedded PostgreSQL for the run, passes, and leaves nothing behind.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { testDatabase } from '../../scripts/test-database.mjs'

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

describe('the test database', () => {
  it('TEST_PG_URL wins; else a local server that answers is used', async () => {
    expect((await testDatabase({ TEST_PG_URL: 'postgres://u@db.example:6000' })).url).toBe(
      'postgres://u@db.example:6000',
    )
    const local = new URL(process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432')
    const found = await testDatabase({ TEST_PG_PORT: local.port || '5432' })
    expect(found.source).toContain(`127.0.0.1:${local.port || '5432'}`)
  })

  it('with neither, npm test starts an embedded PostgreSQL, passes, and stops and removes it', async () => {
    const port = await closedPort()
    const env: NodeJS.ProcessEnv = { ...process.env, TEST_PG_PORT: String(port) }
    delete env.TEST_PG_URL
    // A new template database: the inner run must not reuse this run's variables.
    delete env.CWA_TEST_TEMPLATE
    delete env.NODE_OPTIONS
    const run = spawnSync('node', ['scripts/run-tests.mjs', 'test/core/afterCommit.test.ts'], {
      env,
      encoding: 'utf8',
      timeout: 120_000,
    })
    const output = `${run.stdout}\n${run.stderr}`
    expect(output).toMatch(/Tests run against embedded PostgreSQL on 127\.0\.0\.1:(\d+)/)
    // Whatever that file holds: all of it passed.
    expect(run.stdout.trim().split('\n').pop()).toMatch(/^[1-9]\d* passed, 0 failed$/)
    expect(run.status).toBe(0)
    const embeddedPort = Number(/embedded PostgreSQL on 127\.0\.0\.1:(\d+)/.exec(output)![1])
    // Stopped: its port is free again, and its folder is gone.
    const stillUp = await new Promise<boolean>((resolve) => {
      const probe = createServer()
      probe.once('error', () => resolve(true))
      probe.listen(embeddedPort, '127.0.0.1', () => probe.close(() => resolve(false)))
    })
    expect(stillUp).toBe(false)
    const folder = /data in (\S+)/.exec(output)
    expect(folder).not.toBeNull()
    expect(existsSync(folder![1]!)).toBe(false)
  }, 150_000)
})
