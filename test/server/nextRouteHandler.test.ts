/**
 * The plugin serves its own API in a Next.js app: the route handler
 * `app/(cwa)/%5Fapi/[[...path]]/route.ts` (createCwaNextHandler), built with
 * `next build` (the site's build, shared with the admin panel's tests) and
 * served by `next start` in production mode, no Express.
 * A page is read, a user logs in and writes through it; the same requests
 * answer the same through the Express adapter (the reference site's server).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type ChildProcess, spawn } from 'node:child_process'
import path from 'node:path'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'
import { ensureAdminBuild } from '../support/nextBuild'
import { freePort } from '../support/site'
import { waitFor } from '../support/wait'

const root = process.cwd()
const nextBin = path.join(root, 'node_modules', 'next', 'dist', 'bin', 'next')

let express: TestServer
let next: ChildProcess
let base: string
let output = ''

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [nextBin, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  return child
}

beforeAll(async () => {
  express = await startTestServer()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    DATABASE_URL: express.databaseUrl,
  }
  await ensureAdminBuild()
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  next = run(['start', '-p', String(port), '-H', '127.0.0.1'], env)
  await waitFor(
    () =>
      fetch(`${base}/_api/`).then(
        (r) => r.ok,
        () => false,
      ),
    { timeout: 60_000, message: () => `next start did not answer:\n${output.slice(-4000)}` },
  )
}, 400_000)

afterAll(async () => {
  if (next && next.exitCode === null) {
    const exited = new Promise((resolve) => next.once('exit', resolve))
    next.kill('SIGTERM')
    await exited
  }
  await express?.close()
})

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: {
      accept: 'application/ld+json',
      ...(body === undefined
        ? {}
        : { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/ld+json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined }
}

describe('the JSON-LD API as a Next.js route handler (next build && next start)', () => {
  it('answers the entrypoint with the Hydra documentation link', async () => {
    const entry = await call('GET', `${base}/_api/`)
    expect(entry.status).toBe(200)
    expect(entry.headers.get('content-type')).toBe('application/ld+json; charset=utf-8')
    expect(entry.headers.get('link')).toBe(
      `<${base}/_api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
    )
    expect(entry.body['@type']).toBe('Entrypoint')
    expect(entry.body).toEqual((await call('GET', `${express.url}/_api/`)).body)
  })

  it('reads a page as the Express adapter does, byte for byte', async () => {
    const admin = await express.tokenFor('ROLE_ADMIN')
    const layout = await express.post(
      '/_api/_/layouts',
      { reference: 'next-layout', uiComponent: 'PrimaryLayout' },
      { token: admin },
    )
    expect(layout.status).toBe(201)
    const page = await express.post(
      '/_api/_/pages',
      {
        reference: 'next-page',
        title: 'Served by Next',
        uiComponent: 'PrimaryPageTemplate',
        layout: layout.body['@id'],
      },
      { token: admin },
    )
    expect(page.status).toBe(201)
    const viaNext = await call('GET', `${base}${page.body['@id']}`)
    const viaExpress = await call('GET', `${express.url}${page.body['@id']}`)
    expect(viaNext.status).toBe(200)
    expect(viaNext.body.title).toBe('Served by Next')
    expect(viaNext.text).toBe(viaExpress.text)
    expect((await call('GET', `${base}/_api/_/pages/not-a-uuid`)).status).toBe(404)
  })

  it('logs in, reads the signed-in user and writes with the session cookie; refuses anonymous writes', async () => {
    await express.createUser('next-editor', ['ROLE_ADMIN'])
    const login = await call(
      'POST',
      `${base}/_api/login`,
      { username: 'next-editor', password: PASSWORD },
      { 'content-type': 'application/json' },
    )
    expect(login.status).toBe(204)
    const cookies = login.headers.getSetCookie()
    expect(cookies.map((c) => c.split('=')[0])).toEqual(['api_component', 'api_component_refresh'])
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ')

    const me = await call('GET', `${base}/_api/me`, undefined, { cookie })
    expect(me.status).toBe(200)
    expect(me.body.username).toBe('next-editor')
    expect(me.headers.get('cache-control')).toBe('private, no-store')

    const created = await call(
      'POST',
      `${base}/_api/_/layouts`,
      { reference: 'written-through-next', uiComponent: 'PrimaryLayout' },
      { cookie },
    )
    expect(created.status).toBe(201)
    expect(created.headers.get('location')).toBe(created.body['@id'])
    const patched = await call(
      'PATCH',
      `${base}${created.body['@id']}`,
      { reference: 'patched-through-next' },
      { cookie },
    )
    expect(patched.status).toBe(200)
    const stored = await express.sql('SELECT reference FROM _acb_layouts WHERE id = $1', [
      created.body['@id'].split('/').pop(),
    ])
    expect(stored).toEqual([{ reference: 'patched-through-next' }])

    const anonymous = await call('POST', `${base}/_api/_/layouts`, {
      reference: 'anonymous',
      uiComponent: 'PrimaryLayout',
    })
    expect(anonymous.status).toBe(401)
    expect(await express.sql("SELECT count(*)::int AS n FROM _acb_layouts WHERE reference = 'anonymous'")).toEqual([
      { n: 0 },
    ])

    const logout = await call('POST', `${base}/_api/logout`, undefined, { cookie })
    expect(logout.status).toBe(204)
    expect(logout.headers.getSetCookie().every((c) => /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))).toBe(true)
  })

  it('answers errors as Hydra errors: bad JSON 400, unknown path 404, wrong method 405 with Allow', async () => {
    const admin = await express.tokenFor('ROLE_ADMIN')
    const bad = await fetch(`${base}/_api/_/layouts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/ld+json' },
      body: '{',
    })
    expect(bad.status).toBe(400)
    expect((await bad.json())['@type']).toBe('Error')
    expect((await call('GET', `${base}/_api/no/such/path`)).status).toBe(404)
    const put = await call('PUT', `${base}/_api/_/layouts`, { a: 1 }, { authorization: `Bearer ${admin}` })
    expect(put.status).toBe(405)
    expect(put.headers.get('allow')).toBe('GET, POST')
  })

  it('serves the OpenAPI document it routes by', async () => {
    const docs = await fetch(`${base}/_api/docs.json`)
    expect(docs.status).toBe(200)
    const document = await docs.json()
    expect(Object.keys(document.paths)).toEqual(
      Object.keys((await (await fetch(`${express.url}/_api/docs.json`)).json()).paths),
    )
    expect(document.paths['/_api/_/publish'].post.operationId).toBe('publishDrafts')
  })
})
