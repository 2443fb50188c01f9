/**
 * Issue 27, the embedded Mercure hub: with MERCURE_URL unset, `npm start`
 * outside production serves a hub itself at /.well-known/mercure and
 * publishes to it; production leaves it off; a second instance on the
 * database, or read replicas, refuse it at start-up; SIGTERM ends its
 * streams. Black box: the start script in its own process, on a database
 * cloned from the migrated template, seen over HTTP only (an in-process
 * Payload on the same database creates the admin).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { startTestServer, type TestServer, PASSWORD } from '../support/server'
import { type SseMessage, type SseSubscription, subscribe } from '../support/mercureHub'
import { cleanupSites, startSite, stopSite } from '../support/site'
import { waitFor } from '../support/wait'

const PAST = '2020-01-01T00:00:00.000Z'
const MAX_SUBSCRIBERS = 3
const dir = mkdtempSync(path.join(tmpdir(), 'cwa-embedded-hub-'))
const configFile = path.join(dir, 'options.json')

let fixtures: TestServer
let site: Awaited<ReturnType<typeof startSite>>
let hubUrl: string
let admin: string
let adminCookie: string
let root: string

/** The start script as `npm start` runs it on a developer's machine: no MERCURE_URL, no MERCURE_EMBEDDED, no NODE_ENV. */
const developmentEnv = (extra: Record<string, string | undefined> = {}) => ({
  DATABASE_URL: fixtures.databaseUrl,
  NODE_ENV: undefined,
  MERCURE_URL: undefined,
  MERCURE_EMBEDDED: undefined,
  MERCURE_JWT_SECRET: undefined,
  CWA_CONFIG_FILE: configFile,
  CWA_JOBS_RUNNER: '0',
  SEED_DEMO: '0',
  // A stop that waited for the open streams would take this long.
  SHUTDOWN_GRACE_MS: '30000',
  ...extra,
})

async function request(method: string, url: string, body?: unknown, token?: string) {
  const response = await fetch(`${site.base}${url}`, {
    method,
    headers: {
      accept: 'application/ld+json',
      ...(body === undefined ? {} : { 'content-type': 'application/ld+json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined }
}

const json = (message: SseMessage) => JSON.parse(message.data) as Record<string, any>
const about = (iri: string) => (message: SseMessage) => json(message)['@id'] === iri

async function create(html: string, published = true): Promise<string> {
  const created = await request(
    'POST',
    '/_api/component/html_contents',
    published ? { html, publishedAt: PAST } : { html },
    admin,
  )
  expect(created.status).toBe(201)
  return created.body['@id'] as string
}

beforeAll(async () => {
  writeFileSync(
    configFile,
    JSON.stringify({
      mercure: { hub: { maxSubscribers: MAX_SUBSCRIBERS, heartbeat: 300 } },
      cors: { allowedOrigins: ['https://front\\.example'] },
    }),
  )
  fixtures = await startTestServer()
  await fixtures.createUser('hub_admin', ['ROLE_ADMIN'])
  await fixtures.createUser('hub_root', ['ROLE_SUPER_ADMIN'])
  site = await startSite(developmentEnv())
  hubUrl = `${site.base}/.well-known/mercure`
  const login = await fetch(`${site.base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'hub_admin', password: PASSWORD }),
  })
  expect(login.status).toBe(204)
  const session = login.headers.getSetCookie().find((c) => c.startsWith('api_component='))!
  admin = decodeURIComponent(session.split(';')[0]!.split('=')[1]!)
  const me = await request('GET', '/_api/me', undefined, admin)
  adminCookie = me.headers
    .getSetCookie()
    .find((c) => c.startsWith('mercureAuthorization='))!
    .split(';')[0]!
  root = (await signIn('hub_root')).get('api_component')!
}, 180_000)

afterAll(async () => {
  cleanupSites()
  await fixtures?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** An anonymous subscriber and one with the admin's cookie, both to every topic, closed after `fn`. */
async function anonymousAndAdmin(fn: (anonymous: SseSubscription, admin: SseSubscription) => Promise<void>) {
  const anonymous = await subscribe(hubUrl, ['*'])
  const privileged = await subscribe(hubUrl, ['*'], { headers: { cookie: adminCookie } })
  try {
    expect([anonymous.status, privileged.status]).toEqual([200, 200])
    await fn(anonymous, privileged)
  } finally {
    anonymous.close()
    privileged.close()
  }
}

/** The cookies a browser keeps, from the Set-Cookie headers of the responses it got (a cleared one goes). */
function keep(jar: Map<string, string>, headers: Headers): Map<string, string> {
  for (const cookie of headers.getSetCookie()) {
    const [pair, ...attributes] = cookie.split(';')
    const [name, ...value] = pair!.split('=')
    const cleared = value.join('') === '' || attributes.some((a) => a.trim().toLowerCase() === 'max-age=0')
    if (cleared) jar.delete(name!.trim())
    else jar.set(name!.trim(), decodeURIComponent(value.join('=')))
  }
  return jar
}

const cookieHeader = (jar: Map<string, string>, ...names: string[]) =>
  [...jar]
    .filter(([name]) => names.length === 0 || names.includes(name))
    .map(([n, v]) => `${n}=${v}`)
    .join('; ')

/** Logs in at the site as a browser does: the session cookies and the subscriber cookie (from a JSON-LD response). */
async function signIn(username: string): Promise<Map<string, string>> {
  const login = await fetch(`${site.base}/_api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: PASSWORD }),
  })
  expect(login.status).toBe(204)
  const jar = keep(new Map(), login.headers)
  if (!jar.has('mercureAuthorization')) {
    const me = await fetch(`${site.base}/_api/me`, {
      headers: { accept: 'application/ld+json', cookie: cookieHeader(jar) },
    })
    keep(jar, me.headers)
  }
  return jar
}

/** A subscription once the hub has a place for it (earlier tests' streams close asynchronously on the server). */
async function subscribeWhenFree(topics: string[], options: Parameters<typeof subscribe>[2]): Promise<SseSubscription> {
  let sub: SseSubscription | null = null
  await waitFor(
    async () => {
      sub = await subscribe(hubUrl, topics, options)
      return sub.status !== 503
    },
    { timeout: 5000, interval: 100, message: 'a place on the hub' },
  )
  return sub!
}

/**
 * An admin signs in and streams private updates with its subscriber cookie;
 * `end` ends its standing; the next draft must not reach that stream, which
 * the hub closes, and the same cookie then gets no stream and no replay of
 * the kept history (401).
 */
async function privateDeliveryEndsWith(username: string, end: (jar: Map<string, string>, id: string) => Promise<void>) {
  const id = await fixtures.createUser(username, ['ROLE_ADMIN'])
  const jar = await signIn(username)
  const subscriber = cookieHeader(jar, 'mercureAuthorization')
  expect(subscriber).toMatch(/^mercureAuthorization=./)
  const stream = await subscribeWhenFree(['*'], { headers: { cookie: subscriber } })
  const witness = await subscribeWhenFree(['*'], { headers: { cookie: adminCookie } })
  try {
    expect([stream.status, witness.status]).toEqual([200, 200])
    const before = await create(`<p>draft before: ${username}</p>`, false)
    await stream.waitFor(about(before))
    await end(jar, id)
    const after = await create(`<p>draft after: ${username}</p>`, false)
    await witness.waitFor(about(after))
    // Within the session-check bound (CWA_SESSION_CHECK_CACHE_MS, 2000 ms; a change through this instance at once).
    await Promise.race([stream.ended, new Promise((resolve) => setTimeout(resolve, 3000))])
    expect(stream.messages.some(about(after))).toBe(false)
    await create('<p>after the end, public</p>')
    expect(stream.messages.some(about(after))).toBe(false)
    const replay = await subscribeWhenFree(['*'], { headers: { cookie: subscriber, 'last-event-id': 'earliest' } })
    replay.close()
    expect(replay.status).toBe(401)
    expect(replay.messages).toEqual([])
  } finally {
    stream.close()
    witness.close()
  }
}

describe('on by default in development, with MERCURE_URL unset', () => {
  it('the start says so, and JSON-LD responses announce the site\'s own /.well-known/mercure (rel="mercure")', async () => {
    expect(site.output()).toMatch(/Mercure: the embedded hub is on at \/\.well-known\/mercure/)
    const link = (await request('GET', '/_api/')).headers.get('link')!
    expect(link).toMatch(/rel="http:\/\/www\.w3\.org\/ns\/hydra\/core#apiDocumentation"/)
    expect(link.endsWith(`<${hubUrl}>; rel="mercure"`)).toBe(true)
  })

  it('a round trip: subscribe over SSE, write through the API, receive the JSON-LD an anonymous reader gets', async () => {
    await anonymousAndAdmin(async (anonymous) => {
      const iri = await create('<p>live, embedded</p>')
      const message = await anonymous.waitFor(about(iri))
      expect(json(message)).toEqual((await request('GET', iri)).body)
    })
  })

  it("attack: a draft never reaches an anonymous subscriber; a subscriber with the admin's cookie gets it", async () => {
    await anonymousAndAdmin(async (anonymous, privileged) => {
      const draft = await create('<p>secret embedded draft</p>', false)
      expect(json(await privileged.waitFor(about(draft))).html).toBe('<p>secret embedded draft</p>')
      // A public update sent after the draft reaches the anonymous subscriber: the draft, sent before, did not.
      const marker = await create('<p>after the draft</p>')
      await anonymous.waitFor(about(marker))
      expect(anonymous.messages.some((m) => m.data.includes('secret embedded draft'))).toBe(false)
    })
  })

  it('a subscriber that reconnects with Last-Event-ID gets what it missed, in order', async () => {
    const witness = await subscribe(hubUrl, ['*'])
    const first = await subscribe(hubUrl, ['*'])
    try {
      const seen = await first.waitFor(about(await create('<p>seen</p>')))
      first.close()
      const missed = [await create('<p>missed 1</p>'), await create('<p>missed 2</p>')]
      await witness.waitFor(about(missed[1]!))
      const again = await subscribe(hubUrl, ['*'], { headers: { 'last-event-id': seen.id } })
      try {
        await again.waitFor(about(missed[1]!))
        expect(again.messages.map((m) => json(m)['@id'])).toEqual(missed)
      } finally {
        again.close()
      }
    } finally {
      witness.close()
      first.close()
    }
  })

  it('a front end on another origin (cors.allowedOrigins) may subscribe with credentials; other origins get no CORS header', async () => {
    const front = await subscribe(hubUrl, ['*'], { headers: { origin: 'https://front.example', cookie: adminCookie } })
    const foreign = await subscribe(hubUrl, ['*'], { headers: { origin: 'https://evil.example' } })
    try {
      expect(front.headers.get('access-control-allow-origin')).toBe('https://front.example')
      expect(front.headers.get('access-control-allow-credentials')).toBe('true')
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      front.close()
      foreign.close()
    }
  })

  it('heartbeats keep an idle stream open (a comment every `mercure.hub.heartbeat` ms)', async () => {
    const idle = await subscribe(hubUrl, ['https://nothing.example/{id}'])
    try {
      await waitFor(() => idle.comments >= 3, { timeout: 5000, message: 'two heartbeats' })
    } finally {
      idle.close()
    }
  })

  it('beyond mercure.hub.maxSubscribers a subscription is answered 503 with Retry-After', async () => {
    // The earlier tests' subscriptions close asynchronously on the server: try until they are gone.
    await waitFor(
      async () => {
        const subs: SseSubscription[] = []
        try {
          for (let n = 0; n <= MAX_SUBSCRIBERS; n++) subs.push(await subscribe(hubUrl, ['*']))
          const statuses = subs.map((sub) => sub.status)
          if (statuses.filter((status) => status === 200).length !== MAX_SUBSCRIBERS) return false
          expect(statuses).toEqual([200, 200, 200, 503])
          expect(subs[MAX_SUBSCRIBERS]!.headers.get('retry-after')).toBe('10')
          return true
        } finally {
          for (const sub of subs) sub.close()
        }
      },
      { timeout: 5000, interval: 100, message: `${MAX_SUBSCRIBERS} subscriptions, then a 503` },
    )
  })
})

describe('streams end with the session (issue 36)', () => {
  const asRoot = (id: string, body: Record<string, unknown>) =>
    fetch(`${site.base}/_api/users/${id}`, {
      method: 'PATCH',
      headers: {
        accept: 'application/ld+json',
        'content-type': 'application/merge-patch+json',
        authorization: `Bearer ${root}`,
      },
      body: JSON.stringify(body),
    })

  it('the subscriber cookie is short-lived, names its session, and is issued again with the session (login, refresh)', async () => {
    await fixtures.createUser('hub_refresher', ['ROLE_ADMIN'])
    const login = await fetch(`${site.base}/_api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'hub_refresher', password: PASSWORD }),
    })
    const jar = keep(new Map(), login.headers)
    const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
    const first = claims(jar.get('mercureAuthorization') ?? 'none.e30.none')
    expect(first).toMatchObject({ mercure: { subscribe: ['*'] }, sub: expect.any(String), sid: expect.any(String) })
    expect(first.exp - first.iat).toBeLessThanOrEqual(600)
    expect(login.headers.getSetCookie().find((c) => c.startsWith('mercureAuthorization='))).toMatch(/Max-Age=600;/)
    const refreshed = await fetch(`${site.base}/_api/token/refresh`, {
      method: 'POST',
      headers: { cookie: cookieHeader(jar) },
    })
    expect(refreshed.status).toBe(204)
    keep(jar, refreshed.headers)
    const second = claims(jar.get('mercureAuthorization')!)
    expect(second).toMatchObject({ sub: first.sub, sid: first.sid })
    expect(refreshed.headers.getSetCookie().some((c) => c.startsWith('mercureAuthorization='))).toBe(true)
  })

  it('attack: a disabled admin keeps receiving drafts on an open stream, and gets the kept history replayed', async () => {
    await privateDeliveryEndsWith('hub_disabled', async (_jar, id) => {
      expect((await asRoot(id, { enabled: false })).status).toBe(200)
    })
  })

  it('attack: an admin demoted to a user keeps receiving drafts', async () => {
    await privateDeliveryEndsWith('hub_demoted', async (_jar, id) => {
      expect((await asRoot(id, { roles: ['ROLE_USER'] })).status).toBe(200)
    })
  })

  it("attack: a stolen subscriber cookie keeps receiving drafts after the admin's password was reset", async () => {
    await privateDeliveryEndsWith('hub_reset', async (_jar, id) => {
      expect((await asRoot(id, { plainPassword: 'an entirely new passphrase 36' })).status).toBe(200)
    })
  })

  it('attack: a stream (or a copied subscriber cookie) keeps receiving drafts after its session logged out', async () => {
    await privateDeliveryEndsWith('hub_logout', async (jar) => {
      const logout = await fetch(`${site.base}/_api/logout`, {
        method: 'POST',
        headers: { cookie: cookieHeader(jar, 'api_component', 'api_component_refresh') },
      })
      expect(logout.status).toBe(204)
    })
  })

  it("another session of the same admin keeps streaming when one logs out (the session ends, not the user's others)", async () => {
    await fixtures.createUser('hub_two_sessions', ['ROLE_ADMIN'])
    const [kept, left] = [await signIn('hub_two_sessions'), await signIn('hub_two_sessions')]
    const stream = await subscribeWhenFree(['*'], { headers: { cookie: cookieHeader(kept, 'mercureAuthorization') } })
    try {
      expect(stream.status).toBe(200)
      const logout = await fetch(`${site.base}/_api/logout`, {
        method: 'POST',
        headers: { cookie: cookieHeader(left, 'api_component', 'api_component_refresh') },
      })
      expect(logout.status).toBe(204)
      await stream.waitFor(about(await create('<p>draft for the other session</p>', false)))
    } finally {
      stream.close()
    }
  })
})

describe('several instances: refused at start-up', () => {
  it('a second instance on the same database stops with one line saying to use a real hub (exit 1)', async () => {
    const second = startSite(developmentEnv())
    await expect(second).rejects.toThrow(/start exited with 1/)
    const message = await second.catch((error: Error) => error.message)
    expect(message).toMatch(
      /\[cwa\] Start-up failed at the embedded Mercure hub: Another instance on this database runs the embedded Mercure hub, which serves one instance only: set MERCURE_URL \(mercure\.url\) to a real Mercure hub shared by every instance, or MERCURE_EMBEDDED=0/,
    )
    // The first instance still serves its hub.
    expect((await subscribe(hubUrl, ['*'])).status).toBe(200)
  })

  it('read replicas (DATABASE_REPLICA_URLS) mean scale-out: refused too', async () => {
    const replicated = startSite(developmentEnv({ DATABASE_REPLICA_URLS: fixtures.databaseUrl, MERCURE_EMBEDDED: '1' }))
    await expect(replicated).rejects.toThrow(
      /Start-up failed at the embedded Mercure hub: The embedded Mercure hub serves one instance, and read replicas \(DATABASE_REPLICA_URLS\) mean several: set MERCURE_URL/,
    )
  })
})

describe('production', () => {
  it('is off by default: no hub is served or announced (another instance holding the lock does not matter)', async () => {
    const production = await startSite(
      developmentEnv({
        NODE_ENV: 'production',
        // No load balancer to wait for: the stop needs no drain delay (5 s in production).
        SHUTDOWN_DELAY_MS: '0',
        PAYLOAD_SECRET: process.env.PAYLOAD_SECRET,
        JWT_SECRET_KEY: process.env.JWT_SECRET_KEY,
        JWT_PUBLIC_KEY: process.env.JWT_PUBLIC_KEY,
        JWT_PASSPHRASE: process.env.JWT_PASSPHRASE,
      }),
    )
    try {
      expect(production.output()).toMatch(/Mercure hub: +off/)
      expect((await fetch(`${production.base}/.well-known/mercure?topic=*`)).status).toBe(404)
      const link = (await fetch(`${production.base}/_api/`)).headers.get('link')!
      expect(link).not.toMatch(/rel="mercure"/)
    } finally {
      expect(await stopSite(production.child)).toBe(0)
    }
  })
})

describe('stopping', () => {
  it('SIGTERM ends the open streams: the process exits 0 at once instead of waiting out the grace period', async () => {
    const open = await subscribe(hubUrl, ['*'])
    expect(open.status).toBe(200)
    const started = Date.now()
    expect(await stopSite(site.child)).toBe(0)
    expect(Date.now() - started).toBeLessThan(10_000)
    await open.ended
  })
})
