import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import pg from 'pg'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
import { shutDownWithin } from '../support/shutdown'

/**
 * The test servers' shutdown (test/support/shutdown.ts): a pool whose
 * client is stuck in a query must not hold a test file past its hook
 * timeout, and the report must name the stuck query.
 */

let database: string

beforeAll(async () => {
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
})
afterAll(async () => {
  await dropDatabase(database)
})

describe('test servers shut down within a grace period', () => {
  it('a pool that ends at once ends cleanly, with no report', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(database) })
    await pool.query('SELECT 1')
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      expect(await shutDownWithin(database, () => pool.end(), 2_000)).toBe('clean')
      expect(stderr).not.toHaveBeenCalled()
    } finally {
      stderr.mockRestore()
    }
  })

  it('a client stuck in a query is reported and ended, so the shutdown finishes', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl(database) })
    pool.on('error', () => {})
    const stuck = pool.query('SELECT pg_sleep(600) AS stuck_here').catch((error: Error) => error)
    await new Promise((resolve) => setTimeout(resolve, 300))
    const written: string[] = []
    const stderr = jest
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk) => (written.push(String(chunk)), true))
    try {
      const started = Date.now()
      expect(await shutDownWithin(database, () => pool.end(), 1_000)).toBe('forced')
      expect(Date.now() - started).toBeLessThan(20_000)
    } finally {
      stderr.mockRestore()
    }
    expect(written.join('')).toContain('pg_sleep(600) AS stuck_here')
    expect(await stuck).toBeInstanceOf(Error)
  })
})
