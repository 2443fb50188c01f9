/**
 * Faults: the database closes Payload's connections ("terminating connection
 * due to administrator command", as when it restarts or a test database is
 * dropped). An idle pool client's error and a checked-out client's error
 * must never crash the process (pg throws an unhandled `error` event
 * otherwise): the site's pool (payload.config.ts → src/config/databasePool.ts)
 * handles them for every Payload started from the site's config, with no
 * handler of the caller's. Database-unavailable errors are 503 with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../../payload.config'
import { closePayload } from '../../plugins/cwa/dist/core/utils/closePayload.js'
import { isDatabaseUnavailable } from '../../plugins/cwa/dist/core/utils/databaseUnavailable.js'
import { classifyError, HttpError } from '../../plugins/cwa/dist/hydra/errors.js'
import { onPoolError } from '../../src/config/databasePool'
import { quietDatabaseOutages } from '../../src/server/quietOutages'
import { startPayload } from '../../src/server/bootstrap'
import { createTestDatabase, databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { waitFor } from '../support/wait'

let payload: Payload
let database: string
const poolErrors: string[] = []
const uncaught: unknown[] = []
const onUncaught = (error: unknown) => uncaught.push(error)

beforeAll(async () => {
  process.on('uncaughtException', onUncaught)
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  // No pool.on('error') here: the config's own pool must handle it.
  payload = await startPayload({
    config: buildSiteConfig({ databaseUrl: databaseUrl(database) }),
    key: database,
    migrate: false,
  })
  onPoolError((error) => poolErrors.push(error.message))
})

afterAll(async () => {
  process.off('uncaughtException', onUncaught)
  if (payload) await closePayload(payload)
  await dropDatabase(database)
})

const terminateBackends = () =>
  withAdminClient(async (client) => {
    const { rowCount } = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    )
    return rowCount ?? 0
  })

const pool = () => (payload.db as unknown as { pool: { idleCount: number; totalCount: number } }).pool

describe('database connection faults', () => {
  it('idle pool clients terminated by the database (administrator command) neither crash the process nor break the next query', async () => {
    // Several idle clients in the pool.
    await Promise.all(Array.from({ length: 4 }, () => payload.find({ collection: 'users', limit: 1, depth: 0 })))
    expect(pool().idleCount).toBeGreaterThan(0)
    expect(await terminateBackends()).toBeGreaterThan(0)
    await waitFor(() => poolErrors.some((m) => /terminating connection due to administrator command/.test(m)), {
      message: 'the pool reports the terminated connections',
    })
    // Every terminated idle client has been dropped (a query on one not yet dropped would be a 503).
    await waitFor(() => pool().idleCount === 0, { message: 'the pool to drop its terminated clients' })
    expect(uncaught).toEqual([])
    const found = await payload.find({ collection: 'users', limit: 1, depth: 0 })
    expect(found.docs).toEqual([])
  })

  it('a client checked out in an open transaction that the database terminates does not crash the process', async () => {
    const transaction = await payload.db.beginTransaction()
    await payload.find({ collection: 'users', limit: 1, depth: 0, req: { transactionID: transaction } as never })
    poolErrors.length = 0
    await terminateBackends()
    await waitFor(() => poolErrors.length > 0, { message: 'the checked-out client reports its error' })
    await payload.db.rollbackTransaction(transaction!).catch(() => {})
    expect(uncaught).toEqual([])
    await waitFor(
      async () =>
        await payload.find({ collection: 'users', limit: 1, depth: 0 }).then(
          () => true,
          () => false,
        ),
      { message: 'queries work again' },
    )
  })

  it('classifies connection, timeout and shutdown errors as 503 with Retry-After, never 500', () => {
    const samples: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('timeout exceeded when trying to connect'),
      new Error('Query read timeout'),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
        severity: 'FATAL',
      }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014', severity: 'ERROR' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03', severity: 'FATAL' }),
      new Error('Failed query: select 1', { cause: new Error('Connection terminated due to connection timeout') }),
    ]
    for (const error of samples) {
      expect(isDatabaseUnavailable(error)).toBe(true)
      const classified = classifyError(error, true, 'POST') as HttpError
      expect(classified.status).toBe(503)
      expect(classified.headers['Retry-After']).toBe('5')
    }
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505', severity: 'ERROR' }))).toBe(
      false,
    )
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false)
  })

  it('database-unavailable errors are one WARN line in words; while the process stops (a Ctrl-C reaches the embedded PostgreSQL too) one INFO line and no WARN', () => {
    const lines: Array<[string, string]> = []
    const logger = payload.logger as unknown as Record<'warn' | 'info', (message: string) => void>
    logger.warn = (message) => lines.push(['warn', message])
    logger.info = (message) => lines.push(['info', message])
    let stopping = false
    quietDatabaseOutages(payload, () => stopping)
    const terminated = () =>
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })

    payload.logger.error({ err: terminated(), msg: 'a job failed' })
    payload.logger.error({ err: terminated(), msg: 'a request failed' })
    expect(lines).toEqual([
      [
        'warn',
        'The database is unavailable (terminating connection due to administrator command): requests are answered 503 with Retry-After until it is back',
      ],
    ])

    lines.length = 0
    stopping = true
    payload.logger.error({ err: terminated(), msg: 'a job failed' })
    payload.logger.error(terminated())
    expect(lines).toEqual([['info', 'Work still running while stopping found the database closed']])
  })
})
