import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn, spawnSync } from 'node:child_process'
import { type CommandRun as Run, expectExit, runPayloadCommand, UNREACHABLE_DATABASE_URL } from '../support/command'
import { startTestServer, type TestServer } from '../support/server'

/**
 * `npx payload cwa:user:create` (service contract, "Operator console
 * commands"), run as a real child process against the test database.
 * Each invocation boots Payload (a few seconds), so the cases are few and
 * each checks several things.
 */

let server: TestServer

function env(): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: server.databaseUrl, SEED_DEMO: '0' }
}

/** Runs the command with no terminal attached (stdin is /dev/null). */
function userCreate(...args: string[]): Promise<Run> {
  return runPayloadCommand('cwa:user:create', args, { DATABASE_URL: server.databaseUrl })
}

const sql = (text: string, params: unknown[] = []) => server.sql(text, params)

async function userRow(username: string) {
  const [row] = await sql(
    `SELECT u.id, u.username, u.email, u.enabled, u.email_address_verified, u.hash,
            coalesce(array_agg(r.value::text ORDER BY r."order") FILTER (WHERE r.value IS NOT NULL), '{}') AS roles
       FROM _acb_users u LEFT JOIN _acb_users_roles r ON r.parent_id = u.id
      WHERE u.username = $1 GROUP BY u.id`,
    [username],
  )
  return row as
    | {
        id: string
        username: string
        email: string
        enabled: boolean
        email_address_verified: boolean
        hash: string
        roles: string[]
      }
    | undefined
}

const userCount = async () => (await sql('SELECT count(*)::int AS n FROM _acb_users'))[0].n as number

function loginStatus(username: string, password: string) {
  return server.post('/_api/login', { username, password }, { contentType: 'application/json' }).then((r) => r.status)
}

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('cwa:user:create', () => {
  it('creates a super admin from positional values: email-verified, enabled, can log in', async () => {
    const run = await userCreate('root', 'root@example.com', 'root pass 1', '--super-admin')
    expectExit(run, 0)
    expect(run.stdout).toContain('root')
    const row = await userRow('root')
    expect(row).toMatchObject({
      email: 'root@example.com',
      enabled: true,
      email_address_verified: true,
      roles: ['ROLE_SUPER_ADMIN'],
    })
    expect(row!.hash).not.toContain('root pass 1')
    expect(await loginStatus('root', 'root pass 1')).toBe(204)
  })

  it('creates an admin with --admin and disables it with --inactive (login refused)', async () => {
    const run = await userCreate('editor', 'editor@example.com', 'editor pass', '--admin', '--inactive')
    expectExit(run, 0)
    expect(await userRow('editor')).toMatchObject({
      enabled: false,
      email_address_verified: true,
      roles: ['ROLE_ADMIN'],
    })
    expect(await loginStatus('editor', 'editor pass')).toBe(401)
  })

  it('gives ROLE_USER only without a role flag', async () => {
    const run = await userCreate('plain', 'plain@example.com', 'plain pass')
    expectExit(run, 0)
    expect(await userRow('plain')).toMatchObject({ enabled: true, email_address_verified: true, roles: ['ROLE_USER'] })
  })

  it('refuses a taken username and a taken email: violations on stderr, exit 1, nothing saved', async () => {
    const before = await userCount()
    const rootBefore = await userRow('root')
    const run = await userCreate('root', 'plain@example.com', 'other pass', '--admin')
    expectExit(run, 1)
    expect(run.stderr).toMatch(/^username: .+/m)
    expect(run.stderr).toMatch(/^emailAddress: .+/m)
    expect(await userCount()).toBe(before)
    expect(await userRow('root')).toEqual(rootBefore)
    expect(await loginStatus('root', 'other pass')).toBe(401)
  })

  it('refuses a taken email alone (any letter case) with the violation on emailAddress, exit 1', async () => {
    const before = await userCount()
    const run = await userCreate('newcomer', 'PLAIN@example.com', 'pass')
    expectExit(run, 1)
    expect(run.stderr).toMatch(/^emailAddress: .+/m)
    expect(run.stderr).not.toMatch(/^username: /m)
    expect(await userCount()).toBe(before)
    expect(await userRow('newcomer')).toBeUndefined()
  })

  it('--overwrite updates the existing user: role set (not added), new password works, old one does not', async () => {
    const before = await userRow('root')
    const run = await userCreate('ROOT', 'root@example.com', 'root pass 2', '--admin', '--overwrite')
    expectExit(run, 0)
    const after = await userRow('root')
    expect(after!.id).toBe(before!.id)
    expect(after).toMatchObject({ roles: ['ROLE_ADMIN'], enabled: true, email_address_verified: true })
    expect(after!.hash).not.toBe(before!.hash)
    expect(await loginStatus('root', 'root pass 2')).toBe(204)
    expect(await loginStatus('root', 'root pass 1')).toBe(401)
  })

  it('fails clearly when values are missing and no terminal is attached, before reaching the database: exit 1', async () => {
    // No database to reach: the values are read, and found missing, before one is needed.
    const run = await runPayloadCommand('cwa:user:create', ['lonely'], { DATABASE_URL: UNREACHABLE_DATABASE_URL })
    expectExit(run, 1)
    expect(run.stderr.trim()).toBe(
      'Missing email, password and no terminal to ask for them.\nUsage: npx payload cwa:user:create [username] [email] [password] [--admin|--super-admin] [--inactive] [--overwrite]',
    )
  })

  const hasScript = spawnSync('script', ['--version']).status === 0
  ;(hasScript ? it : it.skip)('prompts for missing values on a terminal, without echoing the password', async () => {
    const password = 'typed secret 42'
    const run = await new Promise<Run>((resolve, reject) => {
      // `script` gives the command a pseudo-terminal; answers are typed once each prompt shows.
      const child = spawn('script', ['-qec', 'npx payload cwa:user:create prompted --admin', '/dev/null'], {
        env: env(),
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      let stdout = ''
      let stderr = ''
      const answered = new Set<string>()
      child.stdout.on('data', (d) => {
        stdout += d
        if (!answered.has('email') && stdout.includes('email: ')) {
          answered.add('email')
          child.stdin.write('prompted@example.com\r')
        }
        if (!answered.has('password') && stdout.includes('password: ')) {
          answered.add('password')
          child.stdin.write(`${password}\r`)
        }
      })
      child.stderr.on('data', (d) => (stderr += d))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, stdout, stderr }))
    })
    expect(run.stdout).toContain('email: ')
    expect(run.stdout).toContain('password: ')
    expect(run.stdout).not.toContain(password)
    expectExit(run, 0)
    expect(await userRow('prompted')).toMatchObject({
      email: 'prompted@example.com',
      roles: ['ROLE_ADMIN'],
      email_address_verified: true,
    })
    expect(await loginStatus('prompted', password)).toBe(204)
  })
})
