import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { startSmtpServer, type TestSmtpServer } from '../support/smtp'

/**
 * passwordReset.concealUnknownUsers: the reset request answers an unknown
 * username or address exactly like a known one (status, body, headers,
 * repeat wait, timing), so the endpoint cannot be used to find accounts.
 */

let server: TestServer
let smtp: TestSmtpServer
const ALLOWED = { origin: 'https://app.example.com' }

const request = (identifier: string, headers: Record<string, string> = ALLOWED) =>
  server.get(`/_api/password/reset/request/${encodeURIComponent(identifier)}`, { headers })

const resetsSent = () => smtp.messages.filter((m) => /password reset/i.test(m.subject)).length

/** What a client can observe of a response, apart from timing. */
const observable = (r: { status: number; text: string; headers: Headers }) => ({
  status: r.status,
  body: r.text,
  cacheControl: r.headers.get('cache-control'),
  contentType: r.headers.get('content-type'),
})

beforeAll(async () => {
  smtp = await startSmtpServer()
  server = await startTestServer({
    mailerDsn: smtp.dsn,
    // No default origin: only requests from the allowed front end get links.
    options: { user: { emailLinks: { allowedOrigins: ['https://app\\.example\\.com'] }, passwordReset: { concealUnknownUsers: true } } },
  })
})
afterAll(async () => {
  await server?.close()
  await smtp?.close()
})

describe('concealed unknown users (account enumeration)', () => {
  it('answers an unknown username and address exactly like a known user, sending nothing for them', async () => {
    await server.createUser('known1')
    const known = await request('known1')
    expect(known.status).toBe(200)
    await smtp.waitFor((m) => m.to.includes('known1@example.com') && /password reset/i.test(m.subject))
    const sentBefore = resetsSent()

    const unknown = await request('not-a-user')
    const unknownAddress = await request('not-a-user@example.com')
    expect(observable(unknown)).toEqual(observable(known))
    expect(observable(unknownAddress)).toEqual(observable(known))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(resetsSent()).toBe(sentBefore)
  })

  it('throttles an unknown identifier like a known user: 429 with the same Retry-After', async () => {
    await server.createUser('known2')
    expect((await request('known2')).status).toBe(200)
    expect((await request('ghost2')).status).toBe(200)
    const known = await request('known2')
    const unknown = await request('ghost2')
    expect(known.status).toBe(429)
    expect(observable(unknown)).toEqual(observable(known))
    expect(Math.abs(Number(unknown.headers.get('retry-after')) - Number(known.headers.get('retry-after')))).toBeLessThanOrEqual(2)
    // The placeholder never holds the identifier itself.
    expect(JSON.stringify(await server.sql('SELECT * FROM _acb_user_tokens WHERE user_id IS NULL'))).not.toContain('ghost2')
  })

  it('refuses the link (400) for unknown and known users alike when no origin is usable', async () => {
    await server.createUser('known3')
    const known = await request('known3', {})
    const unknown = await request('ghost3', {})
    expect(known.status).toBe(400)
    expect(observable(unknown)).toEqual(observable(known))
  })

  it('takes about as long for an unknown identifier as for a real send (timing side channel)', async () => {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
    const timed = async (identifier: string) => {
      const started = performance.now()
      expect((await request(identifier)).status).toBe(200)
      return performance.now() - started
    }
    const knownTimes: number[] = []
    const unknownTimes: number[] = []
    for (let i = 0; i < 7; i++) {
      await server.createUser(`timing${i}`)
      knownTimes.push(await timed(`timing${i}`))
      unknownTimes.push(await timed(`phantom${i}`))
    }
    const known = median(knownTimes)
    const unknown = median(unknownTimes)
    // Without the equalising delay an unknown identifier answers in a fraction of a send's time.
    expect(unknown).toBeGreaterThan(known * 0.5)
    expect(unknown).toBeLessThan(known * 2 + 20)
  })
})
