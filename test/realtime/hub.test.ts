/**
 * The test Mercure hub (test/support/mercureHub.ts) follows the protocol the
 * service relies on: checked here so the real-time tests can trust it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { SignJWT } from 'jose'
import { type MercureTestHub, selectorMatches, startMercureHub, subscribe } from '../support/mercureHub'

const SECRET = 'hub-test-secret-of-enough-length!'
let hub: MercureTestHub

const jwt = (mercure: Record<string, unknown>, secret = SECRET) =>
  new SignJWT({ mercure })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret))

async function publish(fields: Record<string, string | string[]>, token?: string) {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v)
  const response = await fetch(hub.url, {
    method: 'POST',
    body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: response.status, text: await response.text() }
}

beforeAll(async () => {
  hub = await startMercureHub({ publisherSecret: SECRET })
})
afterAll(async () => {
  await hub?.close()
})

describe('publishing', () => {
  it('needs a publisher JWT signed with the secret whose publish selectors match', async () => {
    expect((await publish({ topic: 'https://x/a', data: '{}' })).status).toBe(401)
    expect(
      await publish(
        { topic: 'https://x/a', data: '{}' },
        await jwt({ publish: ['*'] }, 'another secret, wrong one!!!!!!!'),
      ),
    ).toMatchObject({ status: 401 })
    expect(
      (await publish({ topic: 'https://x/a', data: '{}' }, await jwt({ publish: ['https://y/{id}'] }))).status,
    ).toBe(403)
    expect((await publish({ data: '{}' }, await jwt({ publish: ['*'] }))).status).toBe(400)
    const ok = await publish({ topic: 'https://x/a', data: '{}' }, await jwt({ publish: ['*'] }))
    expect(ok.status).toBe(200)
    expect(ok.text).toMatch(/^urn:uuid:/)
  })

  it('topic selectors: *, exact, URI templates', () => {
    expect(selectorMatches('*', 'https://x/anything')).toBe(true)
    expect(selectorMatches('https://x/a', 'https://x/a')).toBe(true)
    expect(selectorMatches('https://x/a', 'https://x/b')).toBe(false)
    expect(selectorMatches('https://x/items/{id}', 'https://x/items/1')).toBe(true)
    expect(selectorMatches('https://x/items/{id}', 'https://x/items/1/2')).toBe(false)
    expect(selectorMatches('https://x/{+path}', 'https://x/items/1/2')).toBe(true)
  })
})

describe('subscribing', () => {
  it('delivers public updates on matching topics only, private ones only to subscribers allowed by their JWT', async () => {
    const publisher = await jwt({ publish: ['*'] })
    const anonymous = await subscribe(hub.url, ['https://x/items/{id}'])
    const allowed = await subscribe(hub.url, ['https://x/items/{id}'], {
      headers: { cookie: `mercureAuthorization=${await jwt({ subscribe: ['https://x/items/{id}'] })}` },
    })
    const elsewhere = await subscribe(hub.url, ['https://x/items/{id}'], {
      headers: { authorization: `Bearer ${await jwt({ subscribe: ['https://y/*'] })}` },
    })
    try {
      await publish({ topic: 'https://x/other/1', data: 'not-matching' }, publisher)
      await publish({ topic: 'https://x/items/1', data: 'secret', private: 'on' }, publisher)
      await publish({ topic: 'https://x/items/2', data: 'line one\nline two' }, publisher)
      for (const sub of [anonymous, allowed, elsewhere]) await sub.waitFor((m) => m.data === 'line one\nline two')
      expect(allowed.messages.map((m) => m.data)).toEqual(['secret', 'line one\nline two'])
      expect(anonymous.messages.map((m) => m.data)).toEqual(['line one\nline two'])
      expect(elsewhere.messages.map((m) => m.data)).toEqual(['line one\nline two'])
    } finally {
      for (const sub of [anonymous, allowed, elsewhere]) sub.close()
    }
  })

  it('refuses a subscriber JWT that does not verify, and a subscription without topic', async () => {
    expect((await subscribe(hub.url, ['*'], { headers: { authorization: 'Bearer not-a-jwt' } })).status).toBe(401)
    expect((await subscribe(hub.url, [])).status).toBe(400)
  })

  it('Last-Event-ID: the updates after that id come first (header or query parameter)', async () => {
    const publisher = await jwt({ publish: ['*'] })
    const first = (await publish({ topic: 'https://x/replay', data: 'one' }, publisher)).text
    await publish({ topic: 'https://x/replay', data: 'two' }, publisher)
    await publish({ topic: 'https://x/replay', data: 'three' }, publisher)
    const byHeader = await subscribe(hub.url, ['https://x/replay'], { headers: { 'last-event-id': first } })
    const byQuery = await subscribe(hub.url, ['https://x/replay'], { query: { lastEventID: first } })
    try {
      for (const sub of [byHeader, byQuery]) {
        await sub.waitFor((m) => m.data === 'three')
        expect(sub.messages.map((m) => m.data)).toEqual(['two', 'three'])
      }
    } finally {
      byHeader.close()
      byQuery.close()
    }
  })
})
