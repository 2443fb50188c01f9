/**
 * The library's Mercure hub (plugins/cwa/features/realtime/hub, the one the
 * reference site embeds), served on a loopback port of its own by
 * test/support/mercureHub.ts: the protocol the service and browsers rely on,
 * and its limits.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { SignJWT } from 'jose'
import { connect } from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { HubLimits } from '../../plugins/cwa/dist/features/realtime/options.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import {
  type MercureTestHub,
  selectorMatches,
  type SseSubscription,
  startMercureHub,
  subscribe,
} from '../support/mercureHub'
import { waitFor } from '../support/wait'

const SECRET = 'hub-test-secret-of-enough-length!'
let hub: MercureTestHub

const jwt = (mercure: Record<string, unknown>, secret = SECRET) =>
  new SignJWT({ mercure })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret))

async function publish(fields: Record<string, string | string[]>, token?: string, url = hub.url) {
  const body = new URLSearchParams()
  for (const [key, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(key, v)
  const response = await fetch(url, {
    method: 'POST',
    body,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: response.status, text: await response.text(), headers: response.headers }
}

/** A hub of its own with these limits, closed after `fn`. */
async function withHub(limits: Partial<HubLimits>, fn: (other: MercureTestHub) => Promise<void>): Promise<void> {
  const other = await startMercureHub({ publisherSecret: SECRET, limits })
  try {
    await fn(other)
  } finally {
    await other.close()
  }
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
    expect(selectorMatches('https://x/{+path}', 'https://x/')).toBe(false)
    // `{var}` stays within a segment wherever the literal text around it falls; `{+var}` and `{#var}` cross segments.
    expect(selectorMatches('https://x/{a}{+b}z{c}!', 'https://x/1/2z/z3!')).toBe(true)
    expect(selectorMatches('https://x/{a}{+b}z{c}!', 'https://x/1/2z/3!')).toBe(false)
    expect(selectorMatches('https://x/{a}?v={v}', 'https://x/1?v=2')).toBe(true)
    expect(selectorMatches('https://x/{a}?v={v}', 'https://x/1/2?v=2')).toBe(false)
    expect(selectorMatches('https://x/{#f}', 'https://x/a#b')).toBe(true)
    expect(selectorMatches('{+a}{+a}!', 'xx!')).toBe(true)
    expect(selectorMatches('{+a}{+a}{+a}!', 'xx!')).toBe(false)
    // An unclosed brace is a literal character.
    expect(selectorMatches('https://x/{a', 'https://x/{a')).toBe(true)
    expect(selectorMatches('https://x/{a', 'https://x/b')).toBe(false)
  })

  it('the automaton agrees with the RFC 6570 reading as a regular expression on every small template and topic', () => {
    // The regular expression is the reference (safe at these sizes): `{var}` one segment, `{+var}`/`{#var}` anything.
    const reference = (template: string) =>
      new RegExp(
        `^${template
          .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
          .replace(/\{(\\\+|#)?[^}]*\}/g, (_w, reserved: string | undefined) => (reserved ? '.+' : '[^/?#]+'))}$`,
      )
    const parts = ['a', 'b', '/', '?', '{x}', '{+x}', '{#x}']
    let seed = 36
    const random = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n
    const disagreements: Array<[string, string]> = []
    for (let n = 0; n < 3000; n++) {
      const template = Array.from({ length: 1 + random(6) }, () => parts[random(parts.length)]).join('')
      if (!template.includes('{')) continue
      const expected = reference(template)
      for (let m = 0; m < 10; m++) {
        const topic = Array.from({ length: random(9) }, () => 'ab/?'[random(4)]).join('')
        if (selectorMatches(template, topic) !== expected.test(topic)) disagreements.push([template, topic])
      }
    }
    expect(disagreements).toEqual([])
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

describe('the protocol, further', () => {
  it('attack: a publisher JWT in a cookie does not publish (a page of another site could send it); every topic must be allowed', async () => {
    const publisher = await jwt({ publish: ['*'] })
    const response = await fetch(hub.url, {
      method: 'POST',
      body: new URLSearchParams({ topic: 'https://x/a', data: '{}' }),
      headers: { cookie: `mercureAuthorization=${publisher}` },
    })
    expect(response.status).toBe(401)
    const partly = await jwt({ publish: ['https://x/{id}'] })
    expect((await publish({ topic: ['https://x/a', 'https://y/b'], data: '{}' }, partly)).status).toBe(403)
    expect((await publish({ topic: ['https://x/a', 'https://x/b'], data: '{}' }, partly)).status).toBe(200)
  })

  it("the publisher's id, type and retry become the message's id, event and retry; line breaks of any kind become data lines", async () => {
    const publisher = await jwt({ publish: ['*'] })
    const sub = await subscribe(hub.url, ['https://x/fields'])
    try {
      const sent = await publish(
        { topic: 'https://x/fields', data: 'one\r\ntwo\rthree', id: 'urn:test:fields', type: 'change', retry: '5000' },
        publisher,
      )
      expect(sent).toMatchObject({ status: 200, text: 'urn:test:fields' })
      const message = await sub.waitFor((m) => m.id === 'urn:test:fields')
      expect(message).toEqual({ id: 'urn:test:fields', data: 'one\ntwo\nthree', event: 'change', retry: 5000 })
    } finally {
      sub.close()
    }
  })

  it('attack: an id or type with a line break (it would forge SSE fields) and a retry that is not a number are refused (400)', async () => {
    const publisher = await jwt({ publish: ['*'] })
    const forged: Array<Record<string, string>> = [
      { id: 'a\ndata: forged' },
      { type: 'x\r\nid: forged' },
      { retry: '10; data: x' },
    ]
    for (const fields of forged)
      expect((await publish({ topic: 'https://x/a', data: '{}', ...fields }, publisher)).status).toBe(400)
  })

  it('CORS: no header for an origin the hub does not allow; the subscription answers SSE with the last id', async () => {
    const sub = await subscribe(hub.url, ['*'], { headers: { origin: 'https://elsewhere.example' } })
    try {
      expect(sub.headers.get('content-type')).toBe('text/event-stream')
      expect(sub.headers.get('access-control-allow-origin')).toBeNull()
      expect(sub.headers.get('last-event-id')).toBe(hub.updates.at(-1)?.id ?? 'earliest')
    } finally {
      sub.close()
    }
  })
})

describe('limits', () => {
  it('beyond maxSubscribers a subscription is answered 503 with Retry-After; a closed one frees its place', async () => {
    await withHub({ maxSubscribers: 2 }, async (limited) => {
      const first = await subscribe(limited.url, ['*'])
      const second = await subscribe(limited.url, ['*'])
      const third = await subscribe(limited.url, ['*'])
      try {
        expect([first.status, second.status, third.status]).toEqual([200, 200, 503])
        expect(third.headers.get('retry-after')).toBe('10')
        first.close()
        await waitFor(async () => limited.hub.size === 1, { timeout: 5000, message: 'the closed subscription to go' })
        const again = await subscribe(limited.url, ['*'])
        expect(again.status).toBe(200)
        again.close()
      } finally {
        for (const sub of [first, second, third]) sub.close()
      }
    })
  })

  it('the history keeps the last `history` updates: earliest replays those, an id that left it replays nothing', async () => {
    await withHub({ history: 3 }, async (limited) => {
      const publisher = await jwt({ publish: ['*'] })
      const ids: string[] = []
      for (const n of [1, 2, 3, 4, 5])
        ids.push((await publish({ topic: 'https://x/h', data: `u${n}` }, publisher, limited.url)).text)
      const earliest = await subscribe(limited.url, ['*'], { query: { lastEventID: 'earliest' } })
      const gone = await subscribe(limited.url, ['*'], { headers: { 'last-event-id': ids[0]! } })
      const kept = await subscribe(limited.url, ['*'], { headers: { 'last-event-id': ids[2]! } })
      try {
        await earliest.waitFor((m) => m.data === 'u5')
        await kept.waitFor((m) => m.data === 'u5')
        expect(earliest.messages.map((m) => m.data)).toEqual(['u3', 'u4', 'u5'])
        expect(kept.messages.map((m) => m.data)).toEqual(['u4', 'u5'])
        // Where the hub is: the client can tell it missed updates.
        expect(gone.headers.get('last-event-id')).toBe(ids[4])
        await publish({ topic: 'https://x/h', data: 'u6' }, publisher, limited.url)
        await gone.waitFor((m) => m.data === 'u6')
        expect(gone.messages.map((m) => m.data)).toEqual(['u6'])
      } finally {
        for (const sub of [earliest, gone, kept]) sub.close()
      }
    })
  })

  it('heartbeats: a comment every `heartbeat` ms on an idle stream', async () => {
    await withHub({ heartbeat: 100 }, async (limited) => {
      const sub = await subscribe(limited.url, ['*'])
      try {
        // The first comment opens the stream; heartbeats follow.
        await waitFor(async () => sub.comments >= 4, { timeout: 3000, message: 'three heartbeats' })
      } finally {
        sub.close()
      }
    })
  })

  it('an update as large as a subscriber buffer is refused (413); a subscriber that reads nothing is disconnected once it leaves more than maxBufferedBytes unread, the others get everything', async () => {
    const bound = 64 * 1024
    await withHub({ maxBufferedBytes: bound }, async (limited) => {
      const publisher = await jwt({ publish: ['*'] })
      expect((await publish({ topic: 'https://x/big', data: 'x'.repeat(bound) }, publisher, limited.url)).status).toBe(
        413,
      )
      const reader = await subscribe(limited.url, ['*'])
      // A client that sends its request and then never reads: what the hub writes piles up.
      const stalled = connect(Number(new URL(limited.url).port), '127.0.0.1')
      stalled.write('GET /.well-known/mercure?topic=* HTTP/1.1\r\nHost: hub\r\nAccept: text/event-stream\r\n\r\n')
      await new Promise((resolve) => stalled.once('data', resolve))
      stalled.pause()
      await waitFor(async () => limited.hub.size === 2, { timeout: 5000, message: 'both subscriptions' })
      try {
        const data = 'y'.repeat(bound - 1024)
        let sent = 0
        while (limited.slowConsumers === 0 && sent < 2000) {
          await publish({ topic: 'https://x/big', data, id: `urn:big:${sent}` }, publisher, limited.url)
          sent += 1
        }
        expect(limited.slowConsumers).toBe(1)
        expect(limited.hub.size).toBe(1)
        await reader.waitFor((m) => m.id === `urn:big:${sent - 1}`, 10_000)
        expect(reader.messages.filter((m) => m.data === data)).toHaveLength(sent)
      } finally {
        stalled.destroy()
        reader.close()
      }
    })
  })

  it('stopping ends every open stream and refuses new subscriptions (503)', async () => {
    const other = await startMercureHub({ publisherSecret: SECRET })
    const sub = await subscribe(other.url, ['*'])
    other.hub.close()
    await sub.ended
    const late = await subscribe(other.url, ['*'])
    expect(late.status).toBe(503)
    await other.close()
  })
})

/** The defaults of the hub's limits (plugins/cwa/features/realtime/options.ts). */
const defaults = resolveOptions({}).mercure.hub

describe('hostile subscribers', () => {
  /** An IRI as the service publishes them (86 characters), and the plain template a front end would use for it. */
  const topic = 'https://example.com/_api/component/html_contents/0196b4f2-7c1e-7d3a-9f0b-3c2e1a5d4b6f'
  const plain = 'https://example.com/_api/component/html_contents/{id}'
  /** The selector of the issue: each `{+a}` was a `.+` that backtracked (21.7 s for seven). */
  const backtracking = `${'{+a}'.repeat(7)}!`
  /**
   * The worst for the automaton against this topic within the cap: as many positions as the topic has characters
   * (a selector with more cannot match and is rejected at once), all of them active to the last character.
   */
  const worst = `{+a}${'{a}'.repeat(topic.length - 2)}${topic.at(-1)}`

  /**
   * Microseconds per match of each selector against `topic` (the best of five rounds of 2000), measured in a
   * worker thread: a matcher that backtracks would freeze this process, so after `timeout` ms the worker is
   * stopped and the answer is null.
   */
  async function matchTimes(selectors: string[], timeout = 10_000): Promise<number[] | null> {
    const topics = pathToFileURL(path.resolve('plugins/cwa/dist/features/realtime/hub/topics.js')).href
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads')
      import(workerData.topics).then(({ selectorMatches }) => {
        parentPort.postMessage(workerData.selectors.map((selector) => {
          const rounds = []
          for (let round = 0; round < 5; round++) {
            const started = process.hrtime.bigint()
            for (let n = 0; n < 2000; n++) selectorMatches(selector, workerData.topic)
            rounds.push(Number(process.hrtime.bigint() - started) / 1000 / 2000)
          }
          return Math.min(...rounds)
        }))
      })`,
      { eval: true, workerData: { topics, selectors, topic } },
    )
    try {
      return await new Promise<number[] | null>((resolve, reject) => {
        const timer = setTimeout(() => resolve(null), timeout)
        worker.once('message', (times: number[]) => {
          clearTimeout(timer)
          resolve(times)
        })
        worker.once('error', reject)
      })
    } finally {
      await worker.terminate()
    }
  }

  it('attack: a selector built to backtrack (ReDoS) costs what a plain one costs; a cheap request is answered in under 100 ms during publishes', async () => {
    // Linear in the topic whatever the selector: no backtracking to multiply the cost by each `{+a}`.
    const times = await matchTimes([plain, backtracking, worst])
    expect(times).not.toBeNull()
    const [plainTime, backtrackingTime, worstTime] = times!
    expect(backtrackingTime).toBeLessThan(plainTime! * 10 + 1)
    expect(worstTime).toBeLessThan(plainTime! * 10 + 5)
    expect(selectorMatches(backtracking, topic)).toBe(false)
    expect(selectorMatches(worst, topic)).toBe(false)
    expect(worst.length).toBeLessThanOrEqual(defaults.maxSelectorLength)
    await withHub({}, async (limited) => {
      const publisher = await jwt({ publish: ['*'] })
      // As many as a request line holds (Node's 16 KiB of headers: each `{+a}` is sent as `%7B%2Ba%7D`).
      // The plain one last: every hostile one is tried on each update before it.
      const hostile = [...Array.from({ length: 8 }, (_, n) => (n % 2 ? worst : `${backtracking}${n}`)), plain]
      const subs = await Promise.all(Array.from({ length: 10 }, () => subscribe(limited.url, hostile)))
      try {
        expect(subs.map((sub) => sub.status)).toEqual(subs.map(() => 200))
        const cheap = new URL('/cheap', limited.url).href
        const waits: number[] = []
        for (let n = 0; n < 5; n++) {
          const published = publish({ topic, data: `u${n}` }, publisher, limited.url)
          const started = Date.now()
          expect((await fetch(cheap)).status).toBe(404)
          waits.push(Date.now() - started)
          expect((await published).status).toBe(200)
        }
        // The median: one round slowed by another process on a shared machine says nothing of the hub.
        expect(waits.sort((a, b) => a - b)[2]).toBeLessThan(100)
        await Promise.all(subs.map((sub) => sub.waitFor((m) => m.data === 'u4')))
      } finally {
        for (const sub of subs) sub.close()
      }
    })
  })

  it('attack: more selectors than mercure.hub.maxSelectors, or a longer one than maxSelectorLength, is a 400 naming the limit', async () => {
    const many = await subscribe(
      hub.url,
      Array.from({ length: defaults.maxSelectors + 1 }, (_, n) => `https://x/${n}`),
    )
    expect(many.status).toBe(400)
    expect(many.headers.get('content-type')).toMatch(/^application\/json/)
    expect(JSON.parse(many.body)).toMatchObject({ limit: 'mercure.hub.maxSelectors', max: defaults.maxSelectors })
    const long = await subscribe(hub.url, [`https://x/${'{+a}'.repeat(defaults.maxSelectorLength / 4)}!`])
    expect(long.status).toBe(400)
    expect(JSON.parse(long.body)).toMatchObject({
      limit: 'mercure.hub.maxSelectorLength',
      max: defaults.maxSelectorLength,
    })
    const atTheCaps = [
      await subscribe(
        hub.url,
        Array.from({ length: defaults.maxSelectors }, (_, n) => `https://x/${n}/{id}`),
      ),
      await subscribe(hub.url, [`https://x/${'a'.repeat(defaults.maxSelectorLength - 10)}`]),
    ]
    expect(atTheCaps.map((sub) => sub.status)).toEqual([200, 200])
    for (const sub of atTheCaps) sub.close()
  })

  it('attack: one client takes every place; past its share (maxSubscribersPerClient) it gets 429 with Retry-After, others still subscribe', async () => {
    await withHub({ maxSubscribers: 4, maxSubscribersPerClient: 2 }, async (limited) => {
      /** A subscriber JWT of this subject, as the request options of `subscribe`. */
      const tokenOf = async (subject: string) => {
        const token = await new SignJWT({ mercure: { subscribe: [] } })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(subject)
          .setExpirationTime('1h')
          .sign(new TextEncoder().encode(SECRET))
        return { headers: { authorization: `Bearer ${token}` } }
      }
      const subs: SseSubscription[] = []
      try {
        // One anonymous client (this address): two places, then 429; a forged X-Forwarded-For is no other client.
        for (let n = 0; n < 2; n++) subs.push(await subscribe(limited.url, ['*']))
        const over = await subscribe(limited.url, ['*'], { headers: { 'x-forwarded-for': '203.0.113.7' } })
        expect(over.status).toBe(429)
        expect(over.headers.get('retry-after')).toBe('10')
        expect(JSON.parse(over.body)).toMatchObject({ limit: 'mercure.hub.maxSubscribersPerClient', max: 2 })
        // Another client (the subject of its JWT) still subscribes, up to the hub's own bound.
        const alice = await tokenOf('alice')
        subs.push(await subscribe(limited.url, ['*'], alice), await subscribe(limited.url, ['*'], alice))
        expect(subs.map((sub) => sub.status)).toEqual([200, 200, 200, 200])
        const full = await subscribe(limited.url, ['*'], await tokenOf('bob'))
        expect(full.status).toBe(503)
        // A closed subscription gives its client its place back.
        subs[0]!.close()
        await waitFor(async () => limited.hub.size === 3, { timeout: 5000, message: 'the closed subscription to go' })
        const again = await subscribe(limited.url, ['*'])
        expect(again.status).toBe(200)
        again.close()
      } finally {
        for (const sub of subs) sub.close()
      }
    })
  })
})
