import { describe, expect, it } from '@jest/globals'
import pg from 'pg'
import { databaseUrl } from '../support/database'

/**
 * The modules test files share within a jest worker (test/support/outerRealm) live in the worker's own realm:
 * what they throw must still be an Error to the file, or every `toBeInstanceOf(Error)` on a shared module's
 * refusal would fail for the wrong reason.
 */
describe('shared modules in the worker realm', () => {
  it('an error a shared module throws is instanceof Error in the file (pg, loaded once per worker)', async () => {
    const client = new pg.Client({ connectionString: databaseUrl('postgres') })
    await client.connect()
    const error = await client.query('SELECT * FROM no_such_table_here').catch((e: unknown) => e)
    await client.end()
    expect(error).toBeInstanceOf(Error)
    expect(error instanceof Error).toBe(true)
    // A subclass keeps its own check: a plain Error is not a TypeError.
    expect(new Error('x') instanceof TypeError).toBe(false)
  })
})
