/**
 * Issue 26, per-process state: each instance keeps a user's token state (enabled, token version) for up to
 * CWA_SESSION_CHECK_CACHE_MS. A change to the user announces itself with NOTIFY in its transaction, and every
 * instance listening forgets the user when it commits: disabling an account ends its JWTs on every instance at
 * once, not within the cache time. Two Payload instances on one database, the cache at 5 s; the attack guarded
 * against is a disabled (or demoted) account still using its JWT on another instance.
 */
import { postgresAdapter } from '@payloadcms/db-postgres'
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { buildConfig, createLocalReq, getPayload, initTransaction, killTransaction, type Payload } from 'payload'
import { closePayload, cwaPlugin } from 'payload-cwa'
import pg from 'pg'
import { tokenStanding } from '../../plugins/cwa/dist/session/revocation.js'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { waitFor } from '../support/wait'

const name = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
const previousCache = process.env.CWA_SESSION_CHECK_CACHE_MS
let writer: Payload
let reader: Payload
let sql: pg.Client
let userId: string

async function instance(label: string): Promise<Payload> {
  const config = await buildConfig({
    secret: 'session-notices-test-secret',
    db: postgresAdapter({
      pool: { connectionString: databaseUrl(name), options: '-c jit=off' },
      idType: 'uuid',
      push: true,
    }),
    plugins: [cwaPlugin()],
    typescript: { autoGenerate: false },
    admin: { importMap: { autoGenerate: false } },
    telemetry: false,
  })
  const payload = await getPayload({ config, key: `${name}-${label}` })
  ;(payload.db as unknown as { pool?: { on(event: 'error', fn: () => void): void } }).pool?.on('error', () => {})
  return payload
}

/** What the reader instance answers for a JWT signed under token version 0. */
const standing = () => tokenStanding(reader, { sub: userId, ver: 0 })

beforeAll(async () => {
  // Kept 5 s: what the reader answers within a second of a change can only come from the notice.
  process.env.CWA_SESSION_CHECK_CACHE_MS = '5000'
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE template0`))
  sql = new pg.Client({ connectionString: databaseUrl(name) })
  await sql.connect()
  writer = await instance('writer')
  reader = await instance('reader')
  const user = await writer.create({
    collection: 'users',
    data: {
      username: 'notices',
      email: 'notices@example.com',
      password: 'a password for notices',
      roles: ['ROLE_ADMIN'],
      enabled: true,
      emailAddressVerified: true,
    } as never,
  })
  userId = String(user.id)
}, 180_000)

afterAll(async () => {
  for (const payload of [writer, reader]) if (payload) await closePayload(payload)
  await sql?.end()
  await dropDatabase(name)
  if (previousCache === undefined) delete process.env.CWA_SESSION_CHECK_CACHE_MS
  else process.env.CWA_SESSION_CHECK_CACHE_MS = previousCache
})

const listeners = async () =>
  (
    await sql.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN cwa_token_state'",
      [name],
    )
  ).rows

describe('the session check across instances', () => {
  it('a user disabled on one instance is refused on another at once, not after the cache time', async () => {
    await waitFor(async () => (await listeners()).length === 2, { message: 'both instances to listen' })
    expect(await standing()).toBe('current') // now kept by the reader for 5 s
    const disabledAt = performance.now()
    await writer.update({ collection: 'users', id: userId, data: { enabled: false } as never })
    await waitFor(async () => (await standing()) === 'gone', { timeout: 1000, message: 'the reader to refuse the JWT' })
    expect(performance.now() - disabledAt).toBeLessThan(1000)
  })

  it('a change rolled back announces nothing: the reader keeps the state it read', async () => {
    await writer.update({ collection: 'users', id: userId, data: { enabled: true } as never })
    // The token version moved on when the account was disabled: a new JWT carries it.
    const fresh = () => tokenStanding(reader, { sub: userId, ver: 1 })
    await waitFor(async () => (await fresh()) === 'current', { timeout: 1000, message: 'the re-enabled account' })
    const req = await createLocalReq({}, writer)
    await initTransaction(req)
    await writer.update({ collection: 'users', id: userId, data: { enabled: false } as never, req })
    await killTransaction(req)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await fresh()).toBe('current')
  })

  it('when its listening connection breaks, an instance forgets every user, says so, and listens again', async () => {
    const fresh = () => tokenStanding(reader, { sub: userId, ver: 1 })
    expect(await fresh()).toBe('current')
    const warn = jest.spyOn(reader.logger, 'warn')
    const before = (await listeners()).map((row) => row.pid)
    await sql.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before])
    // Reconnected (1 s later) on new connections.
    await waitFor(async () => (await listeners()).filter((row) => !before.includes(row.pid)).length === 2, {
      timeout: 10_000,
      message: 'both instances to listen again',
    })
    expect(warn.mock.calls.map((call) => String(call[0]))).toContainEqual(
      expect.stringContaining('The session-check listener lost its connection'),
    )
    warn.mockRestore()
    await writer.update({ collection: 'users', id: userId, data: { enabled: false } as never })
    await waitFor(async () => (await fresh()) === 'gone', { timeout: 1000, message: 'the reader to refuse the JWT' })
  })
})
