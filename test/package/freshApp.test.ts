/**
 * A fresh app proves the package: examples/fresh-app (a minimal Payload 3 + Next.js app written from
 * docs/adopting.md) is copied to a temporary folder outside this project, gets the packed payload-cwa tarball and
 * its peers from the registry (`npm install`, npm's cache), its schema the way the docs say (`payload
 * migrate:create` picks up the plugin's collections, `payload migrate` applies them; the plugin installs its own
 * SQL, row counts and their triggers, when Payload starts), its first admin from a `cwa:` command, then `next
 * build` and `next start` on a fresh database of the real PostgreSQL. Every step's time is printed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type ChildProcess, spawn } from 'node:child_process'
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { databaseUrl, dropDatabase, withAdminClient } from '../support/database'
import { freePort } from '../support/site'
import { waitFor } from '../support/wait'
import { cleanEnv, packPlugin, runOk } from './pack'

const root = process.cwd()
const template = path.join(root, 'examples', 'fresh-app')
const PASSWORD = 'a-long-fresh-app-password'
const timings: Array<[string, number]> = []
const timed = async <T>(step: string, work: () => Promise<T>): Promise<T> => {
  const started = Date.now()
  try {
    return await work()
  } finally {
    timings.push([step, (Date.now() - started) / 1000])
  }
}

let workDir: string
let app: string
let database: string
let env: NodeJS.ProcessEnv
let server: ChildProcess | undefined
let serverOutput = ''
let base: string
let migrationSource = ''
let userCreated = ''

/**
 * `npx <args>` in the app, as its developer runs it, on Node 20 with `--conditions=production` (docs/adopting.md,
 * "Node 20"): without it, a `payload` command of an app whose config loads Lexical (Payload's template does) exits
 * with 0 having done nothing about one time in four on this machine (Node 20's ESM loader loses the last job of
 * Lexical's top-level-await wrappers; seen with `migrate:create`: 2 of 8 runs wrote nothing; 0 of 10 with the flag
 * or without Lexical).
 */
const npx = (args: string[]) =>
  runOk('npx', ['--no-install', ...args], { cwd: app, env: { ...env, NODE_OPTIONS: '--conditions=production' } })

/** One `next build` at a time on this machine: the site's build (test/support/nextBuild.ts) takes the same lock. */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = path.join(root, '.next-build.lock')
  await waitFor(
    () => {
      try {
        mkdirSync(lock)
        return true
      } catch {
        if (Date.now() - statSync(lock).mtimeMs > 15 * 60_000) rmdirSync(lock)
        return false
      }
    },
    { timeout: 900_000, interval: 500, message: 'the next build lock' },
  )
  try {
    return await work()
  } finally {
    rmdirSync(lock)
  }
}

beforeAll(async () => {
  const started = Date.now()
  workDir = mkdtempSync(path.join(tmpdir(), 'cwa-fresh-app-'))
  app = path.join(workDir, 'app')
  // Outside this project: nothing resolves to its node_modules or its workspace.
  cpSync(template, app, {
    recursive: true,
    filter: (source) =>
      !['node_modules', '.next', 'migrations', 'next-env.d.ts', 'tsconfig.tsbuildinfo'].includes(path.basename(source)),
  })
  database = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
  await withAdminClient((c) => c.query(`CREATE DATABASE "${database}"`))
  // The session's RS256 key pair, as an operator provides it in production.
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'fresh-app-passphrase' },
  })
  mkdirSync(path.join(app, 'keys'))
  writeFileSync(path.join(app, 'keys', 'private.pem'), keys.privateKey)
  writeFileSync(path.join(app, 'keys', 'public.pem'), keys.publicKey)
  env = cleanEnv({
    DATABASE_URL: databaseUrl(database),
    PAYLOAD_SECRET: randomBytes(24).toString('hex'),
    JWT_SECRET_KEY: path.join(app, 'keys', 'private.pem'),
    JWT_PUBLIC_KEY: path.join(app, 'keys', 'public.pem'),
    JWT_PASSPHRASE: 'fresh-app-passphrase',
    CWA_DATA_DIR: path.join(app, '.data'),
    // The project's test settings stay out of the app.
    CWA_TEST_TEMPLATE: undefined,
    SEED_DEMO: undefined,
    CWA_SESSION_CHECK_CACHE_MS: undefined,
  })
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]

  // The peers install while the package packs (network and disk beside the build's CPU); then the tarball joins them.
  const [packed] = await Promise.all([
    timed('npm pack (clean build of payload-cwa)', () => packPlugin()),
    timed('npm install (the peers, from the registry)', () =>
      runOk('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, env }),
    ),
  ])
  await timed('npm install <payload-cwa tarball>', () =>
    runOk('npm', ['install', '--no-audit', '--no-fund', packed.tarball], { cwd: app, env }),
  )

  // The import map as the template ships it is what `payload generate:importmap` writes for this config.
  const importMap = path.join(app, 'app', '(payload)', 'admin', 'importMap.js')
  const shipped = readFileSync(importMap, 'utf8')
  const generated = await timed('npx payload generate:importmap', () => npx(['payload', 'generate:importmap']))
  expect(generated.output).toMatch(/Writing import map|No new imports found/)
  // A difference: the plugin's admin components changed; copy the regenerated map into examples/fresh-app.
  if (readFileSync(importMap, 'utf8') !== shipped)
    throw new Error(
      `examples/fresh-app's import map is not what \`payload generate:importmap\` writes now; regenerated:\n${readFileSync(importMap, 'utf8')}`,
    )

  // The build needs no database; the schema and the first admin are made beside it.
  const build = timed('next build', () =>
    withBuildLock(() =>
      runOk('npx', ['--no-install', 'next', 'build'], { cwd: app, env: { ...env, NODE_ENV: 'production' } }),
    ),
  )
  const schema = (async () => {
    const create = await timed('npx payload migrate:create initial', () =>
      npx(['payload', 'migrate:create', 'initial']),
    )
    const dir = path.join(app, 'migrations')
    const file = existsSync(dir) ? readdirSync(dir).find((name) => /_initial\.ts$/.test(name)) : undefined
    if (!file) throw new Error(`payload migrate:create wrote no migration:\n${create.output}`)
    migrationSource = readFileSync(path.join(app, 'migrations', file), 'utf8')
    const migrated = await timed('npx payload migrate', () => npx(['payload', 'migrate']))
    expect(migrated.output).toMatch(/Migrated:\s+\d{8}_\d{6}_initial/)
    const created = await timed('npx payload cwa:user:create', () =>
      npx(['payload', 'cwa:user:create', 'admin', 'admin@example.com', PASSWORD, '--super-admin']),
    )
    userCreated = created.output
  })()
  const results = await Promise.allSettled([build, schema])
  for (const result of results) if (result.status === 'rejected') throw result.reason

  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  await timed('next start (until /_api answers)', async () => {
    // Its own process group: the whole server (npx, next, next-server) stops with one signal.
    server = spawn('npx', ['--no-install', 'next', 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: app,
      env: { ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    server.stdout!.on('data', (d) => (serverOutput += d))
    server.stderr!.on('data', (d) => (serverOutput += d))
    await waitFor(
      async () => {
        if (server!.exitCode !== null) throw new Error(`next start exited with ${server!.exitCode}:\n${serverOutput}`)
        return fetch(`${base}/_api`, { signal: AbortSignal.timeout(10_000) }).then(
          (r) => r.ok,
          () => false,
        )
      },
      { timeout: 120_000, interval: 300, message: () => `next start to answer:\n${serverOutput.slice(-4000)}` },
    )
  })
  timings.push(['total', (Date.now() - started) / 1000])
  console.log(
    `fresh app timings (s):\n${timings.map(([step, seconds]) => `  ${seconds.toFixed(1).padStart(6)}  ${step}`).join('\n')}`,
  )
}, 1_500_000)

afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve))
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
    try {
      process.kill(-server.pid, 'SIGKILL')
    } catch {
      // stopped
    }
  }
  if (database) await dropDatabase(database)
  if (workDir) rmSync(workDir, { recursive: true, force: true })
}, 60_000)

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      accept: 'application/ld+json',
      ...(body === undefined ? {} : { 'content-type': 'application/ld+json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined,
  }
}

async function sql<T = Record<string, unknown>>(query: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl(database) })
  await client.connect()
  try {
    return (await client.query(query, values)).rows as T[]
  } finally {
    await client.end()
  }
}

describe('a fresh Payload app with the packed payload-cwa', () => {
  it("gets the plugin's collections from its own `payload migrate:create`, and the plugin's SQL when it starts", async () => {
    // The app's migration holds the plugin's tables and the app's own component type...
    for (const table of [
      '_acb_layouts',
      '_acb_pages',
      '_acb_routes',
      '_acb_component_groups',
      '_acb_component_positions',
      '_acb_users',
      '_acb_quotes',
    ])
      expect(migrationSource).toContain(`CREATE TABLE "${table}"`)
    // ...but none of what the plugin installs itself at start (Payload declares no triggers).
    expect(migrationSource).not.toContain('_acb_row_counts')
    const triggers = await sql<{ tgname: string }>(
      "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgrelid = '_acb_routes'::regclass ORDER BY tgname",
    )
    expect(triggers.map((t) => t.tgname)).toEqual([
      '_acb_counts_delete',
      '_acb_counts_insert',
      '_acb_counts_truncate',
      '_acb_counts_update',
    ])
    expect(await sql("SELECT name FROM payload_migrations WHERE name <> 'dev' ORDER BY name")).toEqual([
      { name: expect.stringMatching(/_initial$/) },
    ])
  })

  it("answers the JSON-LD entrypoint, naming the app's component type", async () => {
    const entry = await call('GET', '/_api/')
    expect(entry.status).toBe(200)
    expect(entry.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    expect(entry.body['@type']).toBe('Entrypoint')
    expect(entry.body.quote).toBe('/_api/component/quotes')
  })

  it('creates its first admin with `npx payload cwa:user:create`, who signs in through /_api/login', async () => {
    expect(userCreated).toContain('User "admin" created')
    const login = await call(
      'POST',
      '/_api/login',
      { username: 'admin', password: PASSWORD },
      { 'content-type': 'application/json' },
    )
    expect(login.status).toBe(204)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const me = await call('GET', '/_api/me', undefined, { cookie })
    expect(me.status).toBe(200)
    expect(me.body.username).toBe('admin')
    expect(
      (
        await call(
          'POST',
          '/_api/login',
          { username: 'admin', password: 'not-the-password' },
          { 'content-type': 'application/json' },
        )
      ).status,
    ).toBe(401)
  })

  it('creates a component through the API and reads it back', async () => {
    const login = await call(
      'POST',
      '/_api/login',
      { username: 'admin', password: PASSWORD },
      { 'content-type': 'application/json' },
    )
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const anonymous = await call('POST', '/_api/component/quotes', { text: 'Not signed in' })
    expect(anonymous.status).toBe(401)
    const created = await call(
      'POST',
      '/_api/component/quotes',
      { text: 'Installed from the tarball', author: 'fresh app' },
      { cookie },
    )
    expect(created.status).toBe(201)
    expect(created.body['@type']).toBe('Quote')
    const read = await call('GET', created.body['@id'], undefined, { cookie })
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({
      '@id': created.body['@id'],
      text: 'Installed from the tarball',
      author: 'fresh app',
    })
    expect(await sql('SELECT text, author FROM _acb_quotes')).toEqual([
      { text: 'Installed from the tarball', author: 'fresh app' },
    ])
  })

  it("serves the admin panel's login page", async () => {
    const response = await fetch(`${base}/admin/login`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toMatch(/<html[\s\S]*<\/html>/)
  })
})
