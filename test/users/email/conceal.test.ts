import { describe, expect, it } from '@jest/globals'
import { useMailSite } from '../../support/mail'

/**
 * passwordReset.concealUnknownUsers: the reset request answers an unknown
 * username or address exactly like a known one (status, body, headers,
 * repeat wait), so the endpoint cannot be used to find accounts; the
 * resend endpoints give one 404 for an unknown user and for a known one
 * with nothing to resend. (That it also takes as long as a real send is
 * measured by the bench: bench/timing.ts.)
 */

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

// No default origin: only requests from the allowed front end get links.
const { server, smtp } = useMailSite({
  user: {
    emailLinks: { allowedOrigins: ['https://app\\.example\\.com'] },
    passwordReset: { concealUnknownUsers: true },
  },
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
    await smtp.idle()
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
    expect(
      Math.abs(Number(unknown.headers.get('retry-after')) - Number(known.headers.get('retry-after'))),
    ).toBeLessThanOrEqual(2)
    // The placeholder never holds the identifier itself.
    expect(JSON.stringify(await server.sql('SELECT * FROM _acb_user_tokens WHERE user_id IS NULL'))).not.toContain(
      'ghost2',
    )
  })

  it('refuses the link (400) for unknown and known users alike when no origin is usable', async () => {
    await server.createUser('known3')
    const known = await request('known3', {})
    const unknown = await request('ghost3', {})
    expect(known.status).toBe(400)
    expect(observable(unknown)).toEqual(observable(known))
  })
})

describe('concealUnknownUsers on the resend endpoints', () => {
  it('account enumeration through the resend endpoints: an unknown username and a known one with nothing to resend get the same 404', async () => {
    await server.createUser('settled')
    for (const endpoint of ['resend-verify-email', 'resend-verify-new-email']) {
      const known = await server.get(`/_api/${endpoint}/settled`)
      const unknown = await server.get(`/_api/${endpoint}/nobody-here`)
      expect(known.status).toBe(404)
      expect(unknown.status).toBe(404)
      expect(known.text).toBe(unknown.text)
    }
  })
})

describe('throttle placeholders of unknown identifiers', () => {
  it('placeholder flood with distinct unknown identifiers (unbounded table growth): a placeholder past its repeat wait is deleted by the next insert', async () => {
    const placeholders = async () =>
      (await server.sql('SELECT count(*)::int AS n FROM _acb_user_tokens WHERE user_id IS NULL'))[0].n as number
    await server.sql('DELETE FROM _acb_user_tokens WHERE user_id IS NULL')
    expect((await request('ghost-one')).status).toBe(200)
    expect(await placeholders()).toBe(1)
    // Two days ago: its 86400 s repeat wait and its 3600 s validity are over.
    await server.sql(
      "UPDATE _acb_user_tokens SET sent_at = now() - interval '2 days', expires_at = now() - interval '1 day' WHERE user_id IS NULL",
    )
    expect((await request('ghost-two')).status).toBe(200)
    expect(await placeholders()).toBe(1)
    // A placeholder still in its wait stays (it is the throttle).
    expect((await request('ghost-three')).status).toBe(200)
    expect(await placeholders()).toBe(2)
    expect((await request('ghost-two')).status).toBe(429)
  })
})
