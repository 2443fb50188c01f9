import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { parseRefreshTokensExpireArgs } from '../../plugins/cwa/dist/session/commands/refreshTokensExpire.js'
import { type CommandRun, expectExit, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'

/**
 * `npx payload cwa:refresh-tokens:expire [value] [--field username|emailAddress]`
 * (service contract, "Operator console commands"), run as a real child
 * process against the test database, checked through the database and the
 * HTTP API. Each invocation boots Payload (a few seconds).
 */

let server: TestServer

function expire(...args: string[]): Promise<CommandRun> {
  return runPayloadCommand('cwa:refresh-tokens:expire', args, { DATABASE_URL: server.databaseUrl })
}

const sql = (text: string, params: unknown[] = []) => server.sql(text, params)

/** Every refresh token record as stored: the "nothing changed" check. */
const snapshot = () =>
  sql('SELECT token_hash, expires_at, revoked_at, updated_at FROM _acb_refresh_tokens ORDER BY token_hash')

/** Logs in through the API and returns the refresh token. */
async function refreshTokenOf(username: string): Promise<string> {
  const response = await server.post(
    '/_api/login',
    { username, password: PASSWORD },
    { contentType: 'application/json' },
  )
  expect(response.status).toBe(204)
  const line = response.headers.getSetCookie().find((c) => c.startsWith('api_component_refresh='))!
  return decodeURIComponent(line.split(';')[0]!.split('=')[1]!)
}

const refresh = (token: string) =>
  server.post('/_api/token/refresh', undefined, {
    headers: { cookie: `api_component_refresh=${encodeURIComponent(token)}` },
  })

/** Whether the refresh token still works, without spending it (read from the database). */
async function usable(token: string): Promise<boolean> {
  const { createHash } = await import('node:crypto')
  const [row] = await sql(
    'SELECT revoked_at IS NULL AND expires_at > now() AS usable FROM _acb_refresh_tokens WHERE token_hash = $1',
    [createHash('sha256').update(token).digest('hex')],
  )
  return Boolean(row?.usable)
}

beforeAll(async () => {
  server = await startTestServer()
  await server.createUser('alice')
  await server.createUser('bob')
  // "shared@example.com" is carol's username and dave's email address.
  await server.createUser('shared@example.com', ['ROLE_USER'], { email: 'carol@example.com' })
  await server.createUser('dave', ['ROLE_USER'], { email: 'shared@example.com' })
  // One user whose username is also its own email address: not ambiguous.
  await server.createUser('same@example.com', ['ROLE_USER'], { email: 'same@example.com' })
})
afterAll(async () => {
  await server?.close()
})

describe('cwa:refresh-tokens:expire', () => {
  it('rejects a --field other than username or emailAddress before reaching the database: exit 1', async () => {
    for (const args of [['alice', '--field', 'id'], ['--field=email'], ['--field']]) {
      expect(() => parseRefreshTokensExpireArgs(args)).toThrow(/--field/)
    }
    expect(parseRefreshTokensExpireArgs(['bob@example.com', '--field=emailAddress'])).toEqual({
      value: 'bob@example.com',
      field: 'emailAddress',
    })
    // On the console: the reason and the usage, with no database to reach.
    const offline = await runPayloadCommand('cwa:refresh-tokens:expire', ['--field=id'], {
      DATABASE_URL: UNREACHABLE_DATABASE_URL,
    })
    expectExit(offline, 1)
    expect(offline.stderr.trim()).toBe(
      `Invalid --field "id": only username or emailAddress is accepted.\nUsage: npx payload cwa:refresh-tokens:expire [value] [--field username|emailAddress]`,
    )
  }, 60_000)

  it("stops when the value is one user's username and another user's email address: exit 1, nothing expired", async () => {
    const carol = await refreshTokenOf('shared@example.com')
    const dave = await refreshTokenOf('dave')
    const before = await snapshot()
    for (const args of [['shared@example.com'], ['SHARED@example.com', '--field', 'emailAddress']]) {
      const run = await expire(...args)
      expectExit(run, 1)
      expect(run.stderr).toContain('ambiguous')
    }
    expect(await snapshot()).toEqual(before)
    expect(await usable(carol)).toBe(true)
    expect(await usable(dave)).toBe(true)
  }, 60_000)

  it('fails for an unknown user: exit 1, nothing expired', async () => {
    const before = await snapshot()
    const run = await expire('nobody')
    expectExit(run, 1)
    expect(run.stderr).toContain('No user with username "nobody"')
    expect(await snapshot()).toEqual(before)
  })

  it("expires one user's tokens by username (the default field), and no one else's", async () => {
    const alice = [await refreshTokenOf('alice'), await refreshTokenOf('alice')]
    const bob = await refreshTokenOf('bob')
    const run = await expire('Alice')
    expectExit(run, 0)
    expect(run.stdout).toMatch(/Expired \d+ refresh token\(s\) of user "alice"/)
    for (const token of alice) {
      expect(await usable(token)).toBe(false)
      expect((await refresh(token)).status).toBe(401)
    }
    expect(await usable(bob)).toBe(true)
    expect((await refresh(bob)).status).toBe(204)
  })

  it('expires by email address with --field emailAddress (and --field=emailAddress)', async () => {
    const bob = await refreshTokenOf('bob')
    const alice = await refreshTokenOf('alice')
    const run = await expire('--field', 'emailAddress', 'BOB@example.com')
    expectExit(run, 0)
    expect(run.stdout).toContain('of user "bob"')
    expect(await usable(bob)).toBe(false)
    expect(await usable(alice)).toBe(true)
    // The username is the only login identifier: carol's username looks like dave's email, and is hers.
    const carol = await refreshTokenOf('shared@example.com')
    expectExit(await expire('carol@example.com', '--field=emailAddress'), 0)
    expect(await usable(carol)).toBe(false)
    expect(await usable(alice)).toBe(true)
  })

  it("is not ambiguous when the username and the email address are the same user's", async () => {
    const token = await refreshTokenOf('same@example.com')
    const run = await expire('same@example.com')
    expectExit(run, 0)
    expect(await usable(token)).toBe(false)
  })

  it('expires every refresh token without a value; an old token is then a plain 401, not a reuse alarm', async () => {
    const alice = await refreshTokenOf('alice')
    const used = await refreshTokenOf('bob')
    expect((await refresh(used)).status).toBe(204) // rotated: "used"
    const bob = await refreshTokenOf('bob')
    const run = await expire()
    expectExit(run, 0)
    expect(run.stdout).toMatch(/Expired \d+ refresh token\(s\) of all users\./)
    const [{ n }] = await sql('SELECT count(*)::int AS n FROM _acb_refresh_tokens WHERE expires_at > now()')
    expect(n).toBe(0)
    for (const token of [alice, bob, used]) expect((await refresh(token)).status).toBe(401)

    // After logging in again, the stale cookies of other devices do not end the new session.
    const fresh = await refreshTokenOf('bob')
    expect((await refresh(used)).status).toBe(401)
    expect((await refresh(bob)).status).toBe(401)
    expect(await usable(fresh)).toBe(true)
  })
})
