import { describe, expect, it } from '@jest/globals'
import { type ReceivedMessage } from '../../support/smtp'
import { ageSend, expectPrivate, linkParts, sha256, storedTokens, theLink } from '../../support/emailFlows'
import { loggedDuring } from '../../support/logs'
import { useMailSite } from '../../support/mail'
import { waitFor } from '../../support/wait'

/**
 * Email verification: the welcome email of a registration carries the
 * link (verifyOnRegister), GET /verify-email/{username}/{token} verifies,
 * GET /resend-verify-email/{username} sends a new link. Real SMTP; links
 * are read from the delivered emails and followed through the API.
 */

const VALIDITY = 5

const isVerification = (m: ReceivedMessage) => /verify|welcome/i.test(m.subject)
const verificationsTo = (address: string) => smtp.to(address).filter(isVerification)
const verify = (username: string, token: string) =>
  server.get(`/_api/verify-email/${encodeURIComponent(username)}/${encodeURIComponent(token)}`)
const resend = (username: string) => server.get(`/_api/resend-verify-email/${encodeURIComponent(username)}`)

async function isVerified(username: string): Promise<boolean> {
  const [row] = await server.sql('SELECT email_address_verified AS v FROM _acb_users WHERE username = $1', [username])
  return row.v === true
}

async function register(username: string) {
  const response = await server.post('/_api/users', {
    username,
    emailAddress: `${username}@example.com`,
    plainPassword: 'registered pw 123',
  })
  expect(response.status).toBe(201)
  return String(response.body['@id']).split('/').pop()!
}

const { server, smtp } = useMailSite({
  websiteName: 'Verify Site',
  users: { allowRegistration: true },
  user: {
    emailLinks: { defaultOrigin: 'https://front.example.com' },
    emailVerification: { verifyOnRegister: true, requestTimeoutSeconds: VALIDITY },
  },
})

describe('verification after registration', () => {
  it('mails the welcome email with the verification link; following it verifies the address', async () => {
    await register('nora')
    expect(await isVerified('nora')).toBe(false)
    const mail = await smtp.waitFor((m) => m.to.includes('nora@example.com') && isVerification(m))
    expect(mail.subject).toBe('Welcome to Verify Site')
    expect(mail.text).toContain('verify your email address')
    const link = theLink(mail)
    expect(link.origin).toBe('https://front.example.com')
    const { username, token } = linkParts(link)
    expect(link.pathname).toBe(`/verify-email/nora/${token}`)

    const response = await verify(username, token)
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ '@type': 'Status', statusCode: 200 })
    expect(await isVerified('nora')).toBe(true)
  })

  it('works once only (replayed verification link)', async () => {
    await register('otto')
    const { token } = linkParts(
      theLink(await smtp.waitFor((m) => m.to.includes('otto@example.com') && isVerification(m))),
    )
    expect((await verify('otto', token)).status).toBe(200)
    expect((await verify('otto', token)).status).toBe(404)
  })

  it("refuses a forged token, another user's token and an unknown user with 404, verifying nothing (token guessing)", async () => {
    await register('pia')
    await register('quin')
    const { token } = linkParts(
      theLink(await smtp.waitFor((m) => m.to.includes('pia@example.com') && isVerification(m))),
    )
    expect((await verify('quin', token)).status).toBe(404)
    expect((await verify('pia', 'A'.repeat(43))).status).toBe(404)
    expect((await verify('nobody', token)).status).toBe(404)
    expect(await isVerified('quin')).toBe(false)
    expect(await isVerified('pia')).toBe(false)
    expect((await verify('pia', token)).status).toBe(200)
  })

  it('applies the repeat wait after registration too: an immediate resend is 429 with Retry-After', async () => {
    await register('rolf')
    await smtp.waitFor((m) => m.to.includes('rolf@example.com') && isVerification(m))
    const response = await resend('rolf')
    expect(response.status).toBe(429)
    expectPrivate(response)
    const retryAfter = Number(response.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(280)
    expect(retryAfter).toBeLessThanOrEqual(300)
    expect(verificationsTo('rolf@example.com')).toHaveLength(1)
  })

  it('stops working after requestTimeoutSeconds (expired link)', async () => {
    const id = await register('sven')
    const { token } = linkParts(
      theLink(await smtp.waitFor((m) => m.to.includes('sven@example.com') && isVerification(m))),
    )
    // Until the database's clock (the one validity is judged by) is past the link's end, VALIDITY s after the send.
    const expired = async () =>
      (
        await server.sql(
          "SELECT expires_at <= now() AS over FROM _acb_user_tokens WHERE user_id = $1 AND purpose = 'email_verification'",
          [id],
        )
      )[0]?.over === true
    expect(await expired()).toBe(false)
    await waitFor(expired, {
      timeout: VALIDITY * 1000 + 5000,
      interval: 100,
      message: 'the verification link to expire',
    })
    expect((await verify('sven', token)).status).toBe(404)
    expect(await isVerified('sven')).toBe(false)
  })
})

describe('resend verification', () => {
  it('sends a new link for the current address once the wait is over; the previous link stops working', async () => {
    const id = await register('tara')
    const first = linkParts(theLink(await smtp.waitFor((m) => m.to.includes('tara@example.com') && isVerification(m))))
    await ageSend(server, id, 'email_verification', 300)
    const response = await resend('tara')
    expect(response.status).toBe(200)
    expectPrivate(response)
    await smtp.waitFor(() => verificationsTo('tara@example.com').length === 2)
    const mail = verificationsTo('tara@example.com')[1]!
    expect(mail.subject).toBe('Please verify your email address for Verify Site')
    const second = linkParts(theLink(mail))
    expect(second.token).not.toBe(first.token)
    const rows = await storedTokens(server, id, 'email_verification')
    expect(rows.map((r) => r.token_hash)).toEqual([sha256(second.token)])
    expect((await verify('tara', first.token)).status).toBe(404)
    expect((await verify('tara', second.token)).status).toBe(200)
  })

  it('answers 404 for an unknown user and for an address already verified, sending nothing', async () => {
    await server.createUser('uwe')
    const before = smtp.messages.length
    expect((await resend('nobody-at-all')).status).toBe(404)
    const verified = await resend('uwe')
    expect(verified.status).toBe(404)
    expect(verified.body.detail).toMatch(/already verified/)
    await smtp.idle()
    expect(smtp.messages.length).toBe(before)
  })

  it('answers 503 when the transport refuses the mail: nothing saved, the previous link keeps working', async () => {
    const id = await register('vale')
    const { token } = linkParts(
      theLink(await smtp.waitFor((m) => m.to.includes('vale@example.com') && isVerification(m))),
    )
    await ageSend(server, id, 'email_verification', 300)
    const before = await storedTokens(server, id)
    smtp.reject('rcpt')
    try {
      const response = await resend('vale')
      expect(response.status).toBe(503)
      expectPrivate(response)
    } finally {
      smtp.reject('accept')
    }
    expect(await storedTokens(server, id)).toEqual(before)
    expect((await verify('vale', token)).status).toBe(200)
  })

  it('does not verify an address the link was not sent to (address changed after the email)', async () => {
    const id = await register('wera')
    const { token } = linkParts(
      theLink(await smtp.waitFor((m) => m.to.includes('wera@example.com') && isVerification(m))),
    )
    // The operator sets another address (not verified): the old link proved nothing about it.
    await server.payload.update({
      collection: 'users',
      id,
      data: { email: 'wera.new@example.com' } as never,
      overrideAccess: true,
    })
    expect((await verify('wera', token)).status).toBe(404)
    expect(await isVerified('wera')).toBe(false)
  })
})

describe('GET /verify-email', () => {
  it('a failed update leaves the link usable (one transaction), and the 500 log holds no token (token leak into logs)', async () => {
    const id = await server.createUser('brittle', ['ROLE_USER'], { emailAddressVerified: false })
    // Every update of this user fails until the trigger is dropped (set before the link is sent: the link is valid for VALIDITY s only).
    await server.sql(`CREATE FUNCTION verify_email_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.username = 'brittle' THEN RAISE EXCEPTION 'simulated write failure'; END IF; RETURN NEW; END $$`)
    await server.sql(
      'CREATE TRIGGER verify_email_fail BEFORE UPDATE ON _acb_users FOR EACH ROW EXECUTE FUNCTION verify_email_fail()',
    )
    let logged = ''
    let token = ''
    try {
      expect((await resend('brittle')).status).toBe(200)
      token = linkParts(theLink(await smtp.waitFor((m) => m.to.includes('brittle@example.com')))).token
      logged = await loggedDuring(server.payload, async () => {
        expect((await verify('brittle', token)).status).toBe(500)
      })
    } finally {
      await server.sql('DROP TRIGGER verify_email_fail ON _acb_users')
      await server.sql('DROP FUNCTION verify_email_fail()')
    }
    expect(logged).toContain('JSON-LD request failed')
    expect(logged).not.toContain(token)
    expect(logged).not.toContain(encodeURIComponent(token))
    expect(
      (await server.sql('SELECT count(*)::int AS n FROM _acb_user_tokens WHERE token_hash = $1', [sha256(token)]))[0].n,
    ).toBe(1)
    expect((await verify('brittle', token)).status).toBe(200)
    expect(
      (await server.sql('SELECT email_address_verified FROM _acb_users WHERE id = $1', [id]))[0].email_address_verified,
    ).toBe(true)
  })
})
