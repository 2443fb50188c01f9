import { describe, expect, it } from '@jest/globals'
import { type ReceivedMessage } from '../../support/smtp'
import { cookieHeader, loginSession } from '../../support/sessionCookies'
import {
  ageSend,
  canLogin,
  expectPrivate,
  linkParts,
  sha256,
  storedTokens,
  submitReset,
  theLink,
} from '../../support/emailFlows'
import { useMailSite } from '../../support/mail'

/**
 * GET /password/reset/request/{username} and the password_reset form,
 * through real SMTP: the email is read from the SMTP server and its link
 * followed the way a front end does.
 */

const ORIGIN = 'https://front.example.com'

const request = (identifier: string, headers: Record<string, string> = {}) =>
  server.get(`/_api/password/reset/request/${encodeURIComponent(identifier)}`, { headers })

const isReset = (m: ReceivedMessage) => /password reset/i.test(m.subject)

async function resetMailFor(address: string) {
  return smtp.waitFor((m) => m.to.includes(address) && isReset(m))
}

/** Reset emails received by an address (the users also get other emails, e.g. welcome). */
const resetsTo = (address: string) => smtp.to(address).filter(isReset)

const { server, smtp } = useMailSite({ websiteName: 'Site & <Co>', user: { emailLinks: { defaultOrigin: ORIGIN } } })

describe('password reset request', () => {
  it('sends one email with HTML and text bodies, the subject from the options and the link on the default origin', async () => {
    await server.createUser('anna')
    const response = await request('anna')
    expect(response.status).toBe(200)
    expectPrivate(response)
    expect(response.body['@type']).toBe('Status')

    const mail = await resetMailFor('anna@example.com')
    expect(mail.subject).toBe('Your password reset link for Site & <Co>')
    expect(mail.html).toContain('Site &amp; &lt;Co&gt;')
    expect(mail.html).not.toContain('<Co>')
    expect(mail.text).toContain('Site & <Co>')
    const link = theLink(mail)
    expect(link.origin).toBe(ORIGIN)
    const { username, token } = linkParts(link)
    expect(link.pathname).toBe(`/reset-password/anna/${token}`)
    expect(username).toBe('anna')
    expect(token).toMatch(/^[A-Za-z0-9_-]{43,}$/)
    expect(resetsTo('anna@example.com')).toHaveLength(1)
  })

  it('stores only a SHA-256 of the token, never the token itself', async () => {
    const id = await server.createUser('hashy')
    expect((await request('hashy')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('hashy@example.com')))
    const rows = await storedTokens(server, id, 'password_reset')
    expect(rows).toHaveLength(1)
    expect(rows[0]!.token_hash).toBe(sha256(token))
    const dump = JSON.stringify(await server.sql('SELECT * FROM _acb_user_tokens'))
    expect(dump).not.toContain(token)
  })

  it('accepts the email address instead of the username, in any case', async () => {
    await server.createUser('bert')
    expect((await request('BERT@Example.com')).status).toBe(200)
    const { username } = linkParts(theLink(await resetMailFor('bert@example.com')))
    expect(username).toBe('bert')
  })

  it('answers 404 for an unknown username or address, and sends nothing', async () => {
    const before = smtp.messages.length
    const response = await request('nobody-here')
    expect(response.status).toBe(404)
    expect((await request('nobody@example.com')).status).toBe(404)
    await smtp.idle()
    expect(smtp.messages.length).toBe(before)
  })

  it('throttles a repeat request with 429 and Retry-After (seconds left of 86400), sending and changing nothing (mailbox flooding)', async () => {
    const id = await server.createUser('carl')
    expect((await request('carl')).status).toBe(200)
    const first = linkParts(theLink(await resetMailFor('carl@example.com')))
    const stored = await storedTokens(server, id, 'password_reset')

    const again = await request('carl')
    expect(again.status).toBe(429)
    expectPrivate(again)
    const retryAfter = Number(again.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(86400 - 30)
    expect(retryAfter).toBeLessThanOrEqual(86400)
    expect(resetsTo('carl@example.com')).toHaveLength(1)
    expect(await storedTokens(server, id, 'password_reset')).toEqual(stored)

    // Half the wait later, Retry-After says what is left.
    await ageSend(server, id, 'password_reset', 43200)
    const later = await request('carl')
    expect(later.status).toBe(429)
    expect(Math.abs(Number(later.headers.get('retry-after')) - 43200)).toBeLessThan(30)

    // Once the wait is over a new email goes out and replaces the previous link.
    await ageSend(server, id, 'password_reset', 43200)
    expect((await request('carl')).status).toBe(200)
    await smtp.waitFor(() => resetsTo('carl@example.com').length === 2)
    const second = linkParts(theLink(resetsTo('carl@example.com')[1]!))
    expect(second.token).not.toBe(first.token)
    expect((await submitReset(server, 'carl', first.token, 'replaced link pw 1')).status).toBe(404)
    expect((await submitReset(server, 'carl', second.token, 'newest link pw 1')).status).toBe(201)
  })
})

describe('password reset by email address', () => {
  it("reset-email hijack through a username equal to another account's address: the address's owner gets the email", async () => {
    await server.createUser('alice', ['ROLE_USER'], { email: 'alice@corp.example' })
    await server.createUser('alice@corp.example', ['ROLE_USER'], { email: 'mallory@evil.example' })
    const response = await server.get('/_api/password/reset/request/ALICE%40corp.example')
    expect(response.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('alice@corp.example'))
    expect(linkParts(theLink(mail)).username).toBe('alice')
    await smtp.idle()
    expect(smtp.to('mallory@evil.example')).toHaveLength(0)
    // The look-alike account still resets through its own address.
    expect((await server.get('/_api/password/reset/request/mallory%40evil.example')).status).toBe(200)
    const own = await smtp.waitFor((m) => m.to.includes('mallory@evil.example'))
    expect(linkParts(theLink(own)).username).toBe('alice@corp.example')
  })
})

describe('concurrent requests', () => {
  it('sends one email for simultaneous requests of one user; the others get 429 (throttle race)', async () => {
    const id = await server.createUser('race')
    const responses = await Promise.all(Array.from({ length: 6 }, () => request('race')))
    const statuses = responses.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429])
    for (const r of responses.filter((x) => x.status === 429))
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
    await resetMailFor('race@example.com')
    await smtp.idle()
    expect(resetsTo('race@example.com')).toHaveLength(1)
    expect(await storedTokens(server, id, 'password_reset')).toHaveLength(1)
  })
})

describe('password reset with the emailed link', () => {
  it('sets the new password through the password_reset form; the old password stops working', async () => {
    await server.createUser('dora')
    expect((await request('dora')).status).toBe(200)
    const { username, token } = linkParts(theLink(await resetMailFor('dora@example.com')))
    const response = await submitReset(server, username, token, 'dora brand new 42')
    expect(response.status).toBe(201)
    expect(await canLogin(server, 'dora', 'dora brand new 42')).toBe(true)
    expect(await canLogin(server, 'dora', 'correct horse battery staple')).toBe(false)
  })

  it('lifts a lock from failed logins (owner locked out by password guessing)', async () => {
    await server.createUser('lock')
    // From two addresses (one address is throttled after 5 failures on an account, before the lock), then the owner's own one.
    for (let i = 0; i < 10; i++) {
      const headers = { 'x-forwarded-for': i < 5 ? '192.0.2.1' : '192.0.2.2' }
      await server.post(
        '/_api/login',
        { username: 'lock', password: `wrong guess ${i}` },
        { contentType: 'application/json', headers },
      )
    }
    const [locked] = await server.sql("SELECT lock_until > now() AS locked FROM _acb_users WHERE username = 'lock'")
    expect(locked.locked).toBe(true)
    expect((await request('lock')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('lock@example.com')))
    expect((await submitReset(server, 'lock', token, 'unlocked by reset 1')).status).toBe(201)
    expect(await canLogin(server, 'lock', 'unlocked by reset 1')).toBe(true)
    // The guessing addresses' count on the account went with the lock (the owner may have been one of them).
    const again = await server.post(
      '/_api/login',
      { username: 'lock', password: 'unlocked by reset 1' },
      { contentType: 'application/json', headers: { 'x-forwarded-for': '192.0.2.1' } },
    )
    expect(again.status).toBe(204)
  })

  it('works once only (replayed reset link)', async () => {
    await server.createUser('emil')
    expect((await request('emil')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('emil@example.com')))
    expect((await submitReset(server, 'emil', token, 'emil first 111')).status).toBe(201)
    const replay = await submitReset(server, 'emil', token, 'emil attacker 222')
    expect(replay.status).toBe(404)
    expect(await canLogin(server, 'emil', 'emil first 111')).toBe(true)
  })

  it("refuses another user's token, a forged token and an unknown user with 404 (token guessing)", async () => {
    await server.createUser('fritz')
    await server.createUser('gina')
    expect((await request('fritz')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('fritz@example.com')))
    expect((await submitReset(server, 'gina', token, 'stolen token 333')).status).toBe(404)
    expect((await submitReset(server, 'fritz', token.slice(0, -2) + 'AA', 'forged 444')).status).toBe(404)
    expect((await submitReset(server, 'nobody', token, 'nobody 555')).status).toBe(404)
    expect(await canLogin(server, 'gina', 'correct horse battery staple')).toBe(true)
    // The real owner can still use it: failed attempts do not burn the token.
    expect((await submitReset(server, 'fritz', token, 'fritz own 666')).status).toBe(201)
  })

  it('refuses an expired link with 404 (validity: requestTimeoutSeconds)', async () => {
    const id = await server.createUser('hugo')
    expect((await request('hugo')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('hugo@example.com')))
    await server.sql("UPDATE _acb_user_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1", [id])
    expect((await submitReset(server, 'hugo', token, 'too late 777')).status).toBe(404)
    expect(await canLogin(server, 'hugo', 'correct horse battery staple')).toBe(true)
  })

  it('stores the link to expire after 3600 s by default', async () => {
    const id = await server.createUser('ivan')
    expect((await request('ivan')).status).toBe(200)
    const [row] = await server.sql(
      'SELECT extract(epoch FROM expires_at - sent_at)::int AS validity FROM _acb_user_tokens WHERE user_id = $1',
      [id],
    )
    expect(row.validity).toBe(3600)
  })

  it('ends every session of the user: an old refresh cookie no longer works (attacker keeping a stolen session)', async () => {
    await server.createUser('jana')
    const stolen = await loginSession(server, 'jana')
    const laptop = await loginSession(server, 'jana')
    expect((await request('jana')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('jana@example.com')))
    // Submitted from a browser that still holds one of the sessions: that one ends too.
    const response = await server.post(
      '/_api/component/forms/password_reset/submit',
      {
        password_reset: {
          username: 'jana',
          token,
          plainPassword: { first: 'jana resets 888', second: 'jana resets 888' },
        },
      },
      { contentType: 'application/json', headers: { cookie: cookieHeader({ refresh: laptop.refresh }) } },
    )
    expect(response.status).toBe(201)
    for (const session of [stolen, laptop]) {
      const refreshed = await server.post('/_api/token/refresh', undefined, {
        headers: { cookie: cookieHeader({ refresh: session.refresh }) },
      })
      expect(refreshed.status).toBe(401)
    }
  })

  it('sends the password_changed email, without any link', async () => {
    await server.createUser('kurt')
    expect((await request('kurt')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('kurt@example.com')))
    expect((await submitReset(server, 'kurt', token, 'kurt new pw 999')).status).toBe(201)
    const notice = await smtp.waitFor(
      (m) => m.to.includes('kurt@example.com') && m.subject === 'Your Site & <Co> password has changed',
    )
    expect(notice.text).toContain('password has been changed')
    expect(notice.html).not.toMatch(/href=/)
    expect(notice.text).not.toMatch(/https?:\/\//)
    await smtp.idle()
    expect(smtp.to('kurt@example.com').filter((m) => /password has changed/.test(m.subject))).toHaveLength(1)
  })
})

describe('mail transport failure', () => {
  it('answers 503, saves no new token and keeps the previous link working', async () => {
    const id = await server.createUser('lena')
    expect((await request('lena')).status).toBe(200)
    const { token } = linkParts(theLink(await resetMailFor('lena@example.com')))
    const before = await storedTokens(server, id, 'password_reset')
    await ageSend(server, id, 'password_reset', 86400)
    const aged = await storedTokens(server, id, 'password_reset')

    for (const mode of ['rcpt', 'data'] as const) {
      smtp.reject(mode)
      try {
        const response = await request('lena')
        expect(response.status).toBe(503)
        expectPrivate(response)
        expect(response.body.detail).toMatch(/could not be sent/)
      } finally {
        smtp.reject('accept')
      }
      expect(await storedTokens(server, id, 'password_reset')).toEqual(aged)
    }
    expect(aged.map((r) => r.token_hash)).toEqual(before.map((r) => r.token_hash))
    expect(resetsTo('lena@example.com')).toHaveLength(1)
    expect((await submitReset(server, 'lena', token, 'lena still works 1')).status).toBe(201)
  })
})
