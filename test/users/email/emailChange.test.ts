import { beforeAll, describe, expect, it } from '@jest/globals'
import { linksIn, type ReceivedMessage } from '../../support/smtp'
import { loggedDuring } from '../../support/logs'
import { useMailSite } from '../../support/mail'

/**
 * The email change flow with verifyOnChange (contract, "User account",
 * "Email flows", "Email links", "Limits"), end to end through a real SMTP
 * server: PATCH newEmailAddress, the emailed link, GET confirm-email,
 * cancel, replacement, resend with its repeat wait, link refusal and
 * transport failure.
 */

const FRONT = 'https://front.example'
const ORIGIN = { origin: FRONT }

let root: string

const stored = async (id: string) =>
  (await server.sql('SELECT email, new_email_address, email_address_verified FROM _acb_users WHERE id = $1', [id]))[0]
const paths = (body: { violations?: Array<{ propertyPath: string }> }) =>
  (body.violations ?? []).map((v) => v.propertyPath)

/** A signed-in user of its own. */
async function member(username: string): Promise<{ id: string; token: string }> {
  const id = await server.createUser(username)
  return { id, token: await server.login(username) }
}

const requestChange = (
  who: { id: string; token: string },
  newEmailAddress: string | null,
  headers: Record<string, string> = ORIGIN,
) => server.patch(`/_api/users/${who.id}`, { newEmailAddress }, { token: who.token, headers })

/** The confirmation link mailed to `address` (the latest), split into its parts. */
async function confirmationTo(
  address: string,
  count = 1,
): Promise<{ mail: ReceivedMessage; link: string; token: string; apiPath: string }> {
  await smtp.waitFor(() => smtp.to(address).length >= count)
  const mail = smtp.to(address)[count - 1]!
  const [link] = linksIn(mail)
  const match = /^https:\/\/front\.example\/confirm-new-email\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(link ?? '')
  if (!match) throw new Error(`unexpected link ${link}`)
  return {
    mail,
    link: link!,
    token: decodeURIComponent(match[3]!),
    apiPath: `/_api/confirm-email/${match[1]}/${match[2]}/${match[3]}`,
  }
}

/** Makes the repeat wait of a user's last confirmation email run out (as if 301 s had passed). */
const endRepeatWait = (id: string) =>
  server.sql(
    "UPDATE _acb_user_tokens SET sent_at = sent_at - interval '301 seconds' WHERE user_id = $1 AND purpose = 'new_email'",
    [id],
  )

const { server, smtp } = useMailSite({
  user: { emailVerification: { verifyOnChange: true }, emailLinks: { allowedOrigins: ['https://front\\.example'] } },
})
beforeAll(async () => {
  await server.createUser('root', ['ROLE_SUPER_ADMIN'])
  await server.createUser('owner')
  root = await server.login('root')
})

describe('requesting and confirming a change', () => {
  it('keeps the address until the emailed link is opened, then confirms it (verified, nothing pending)', async () => {
    const lea = await member('lea')
    const response = await requestChange(lea, 'Lea.New@Example.com')
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      emailAddress: 'lea@example.com',
      newEmailAddress: 'lea.new@example.com',
      emailAddressVerified: true,
    })
    expect(await stored(lea.id)).toEqual({
      email: 'lea@example.com',
      new_email_address: 'lea.new@example.com',
      email_address_verified: true,
    })

    const { mail, link, apiPath } = await confirmationTo('lea.new@example.com')
    expect(mail.subject).toBe('Please confirm your new email address for CWA Reference Site')
    expect(link).toMatch(
      /^https:\/\/front\.example\/confirm-new-email\/lea\/lea\.new%40example\.com\/[A-Za-z0-9_-]{20,}$/,
    )
    // Only the new address gets the link (the current one only had its welcome email).
    expect(smtp.to('lea@example.com').filter((m) => linksIn(m).length > 0)).toHaveLength(0)

    const confirmed = await server.get(apiPath)
    expect(confirmed.status).toBe(200)
    expect(confirmed.headers.get('cache-control')).toContain('no-store')
    expect(await stored(lea.id)).toEqual({
      email: 'lea.new@example.com',
      new_email_address: null,
      email_address_verified: true,
    })
    expect((await server.get('/_api/me', { token: lea.token })).body.emailAddress).toBe('lea.new@example.com')

    // Single use (replay of a used link).
    expect((await server.get(apiPath)).status).toBe(404)
  })

  it("turns the account holder's direct emailAddress write into a pending change (email change without confirmation attempt)", async () => {
    const max = await member('max')
    const response = await server.patch(
      `/_api/users/${max.id}`,
      { emailAddress: 'max.new@example.com' },
      { token: max.token, headers: ORIGIN },
    )
    expect(response.status).toBe(200)
    expect(await stored(max.id)).toEqual({
      email: 'max@example.com',
      new_email_address: 'max.new@example.com',
      email_address_verified: true,
    })
    await confirmationTo('max.new@example.com')
  })

  it('answers 404 for a wrong token, another address in the path, or an unknown user, and changes nothing', async () => {
    const nia = await member('nia')
    await requestChange(nia, 'nia.new@example.com')
    const { token } = await confirmationTo('nia.new@example.com')
    expect((await server.get(`/_api/confirm-email/nia/nia.new%40example.com/${'x'.repeat(43)}`)).status).toBe(404)
    expect((await server.get(`/_api/confirm-email/nia/attacker%40example.com/${token}`)).status).toBe(404)
    expect((await server.get(`/_api/confirm-email/nobody/nia.new%40example.com/${token}`)).status).toBe(404)
    expect((await server.get(`/_api/confirm-email/lea/nia.new%40example.com/${token}`)).status).toBe(404)
    expect(await stored(nia.id)).toEqual({
      email: 'nia@example.com',
      new_email_address: 'nia.new@example.com',
      email_address_verified: true,
    })
    // The real link still works after those attempts.
    expect((await server.get(`/_api/confirm-email/nia/nia.new%40example.com/${token}`)).status).toBe(200)
  })

  it('refuses an address another account owns (account takeover by claiming its email): 422 on newEmailAddress, no email', async () => {
    const oli = await member('oli')
    const response = await requestChange(oli, 'owner@example.com')
    expect(response.status).toBe(422)
    expect(paths(response.body)).toEqual(['newEmailAddress'])
    expect(await stored(oli.id)).toMatchObject({ new_email_address: null })
    expect(smtp.to('owner@example.com').filter((m) => /confirm/i.test(m.subject))).toHaveLength(0)
  })

  it('answers 409 when another account took the address before the link was opened, and changes nothing', async () => {
    const pia = await member('pia')
    await requestChange(pia, 'contested@example.com')
    const { apiPath } = await confirmationTo('contested@example.com')
    await server.createUser('quick', ['ROLE_USER'], { email: 'contested@example.com' })
    expect((await server.get(apiPath)).status).toBe(409)
    expect(await stored(pia.id)).toMatchObject({ email: 'pia@example.com' })
  })
})

describe('cancelling and replacing', () => {
  it('cancels with null: the emailed link then returns 404, and a new change may be requested at once', async () => {
    const ray = await member('ray')
    await requestChange(ray, 'ray.one@example.com')
    const first = await confirmationTo('ray.one@example.com')

    const cancelled = await requestChange(ray, null)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.newEmailAddress).toBeNull()
    expect((await server.get(first.apiPath)).status).toBe(404)
    expect(await stored(ray.id)).toEqual({
      email: 'ray@example.com',
      new_email_address: null,
      email_address_verified: true,
    })

    const again = await requestChange(ray, 'ray.two@example.com')
    expect(again.status).toBe(200)
    const second = await confirmationTo('ray.two@example.com')
    expect((await server.get(second.apiPath)).status).toBe(200)
    expect((await stored(ray.id)).email).toBe('ray.two@example.com')
  })

  it("cancels with '' too", async () => {
    const sam = await member('sam')
    await requestChange(sam, 'sam.new@example.com')
    const { apiPath } = await confirmationTo('sam.new@example.com')
    expect((await requestChange(sam, '')).status).toBe(200)
    expect((await stored(sam.id)).new_email_address).toBeNull()
    expect((await server.get(apiPath)).status).toBe(404)
  })

  it('invalidates the earlier token when a newer change is requested (even back to the same address); at most one immediate re-send per repeat wait', async () => {
    const tia = await member('tia')
    await requestChange(tia, 'tia.a@example.com')
    const earlier = await confirmationTo('tia.a@example.com')
    await requestChange(tia, 'tia.b@example.com')
    const replaced = await confirmationTo('tia.b@example.com')
    // A third address within the repeat wait: saved, the earlier links die, but no email (the wait holds).
    const back = await requestChange(tia, 'tia.a@example.com')
    expect(back.status).toBe(200)
    expect(back.body.newEmailAddress).toBe('tia.a@example.com')
    await smtp.idle()
    expect(smtp.to('tia.a@example.com')).toHaveLength(1)
    expect((await server.get(earlier.apiPath)).status).toBe(404)
    expect((await server.get(replaced.apiPath)).status).toBe(404)
    expect((await server.get('/_api/resend-verify-new-email/tia', { headers: ORIGIN })).status).toBe(429)
    await endRepeatWait(tia.id)
    expect((await server.get('/_api/resend-verify-new-email/tia', { headers: ORIGIN })).status).toBe(200)
    const latest = await confirmationTo('tia.a@example.com', 2)
    expect(latest.token).not.toBe(earlier.token)
    expect((await server.get(latest.apiPath)).status).toBe(200)
  })

  it('sends nothing new when the same pending address is sent again', async () => {
    const uma = await member('uma')
    await requestChange(uma, 'uma.new@example.com')
    const first = await confirmationTo('uma.new@example.com')
    expect((await requestChange(uma, 'uma.new@example.com')).status).toBe(200)
    await smtp.idle()
    expect(smtp.to('uma.new@example.com')).toHaveLength(1)
    expect((await server.get(first.apiPath)).status).toBe(200)
  })
})

describe('GET /resend-verify-new-email/{username}', () => {
  it('waits 300 s after the last confirmation email (429 with Retry-After), then sends a new link that replaces the old one', async () => {
    const vic = await member('vic')
    await requestChange(vic, 'vic.new@example.com')
    const first = await confirmationTo('vic.new@example.com')

    const throttled = await server.get('/_api/resend-verify-new-email/vic', { headers: ORIGIN })
    expect(throttled.status).toBe(429)
    const retryAfter = Number(throttled.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(290)
    expect(retryAfter).toBeLessThanOrEqual(300)
    expect(throttled.headers.get('cache-control')).toContain('no-store')
    expect(smtp.to('vic.new@example.com')).toHaveLength(1)

    await endRepeatWait(vic.id)
    const resent = await server.get('/_api/resend-verify-new-email/vic', { headers: ORIGIN })
    expect(resent.status).toBe(200)
    expect(resent.headers.get('cache-control')).toContain('no-store')
    const second = await confirmationTo('vic.new@example.com', 2)
    expect((await server.get(first.apiPath)).status).toBe(404)
    expect((await server.get(second.apiPath)).status).toBe(200)
  })

  it('answers 404 for an unknown user and for a user with nothing pending', async () => {
    await member('wes')
    expect((await server.get('/_api/resend-verify-new-email/nobody_at_all', { headers: ORIGIN })).status).toBe(404)
    expect((await server.get('/_api/resend-verify-new-email/wes', { headers: ORIGIN })).status).toBe(404)
  })

  it('answers 400 when no link can be built (no allowed Origin, no default origin) and changes nothing', async () => {
    const xia = await member('xia')
    await requestChange(xia, 'xia.new@example.com')
    const first = await confirmationTo('xia.new@example.com')
    await endRepeatWait(xia.id)
    expect(
      (await server.get('/_api/resend-verify-new-email/xia', { headers: { origin: 'https://evil.example' } })).status,
    ).toBe(400)
    expect(smtp.to('xia.new@example.com')).toHaveLength(1)
    expect((await server.get(first.apiPath)).status).toBe(200)
  })
})

describe('link refusal and transport failure', () => {
  it('saves the change without an email when the link is refused (phishing origin), logging the refusal at error level', async () => {
    const yan = await member('yan')
    const errors = await loggedDuring(server.payload, async () => {
      const response = await requestChange(yan, 'yan.new@example.com', { origin: 'https://evil.example' })
      expect(response.status).toBe(200)
    })
    expect((await stored(yan.id)).new_email_address).toBe('yan.new@example.com')
    await smtp.idle()
    expect(smtp.to('yan.new@example.com')).toHaveLength(0)
    expect(errors).toMatch(/link refused/i)
  })

  it('answers 503 when the confirmation cannot be sent: nothing saved, the earlier link keeps working', async () => {
    const zoe = await member('zoe')
    await requestChange(zoe, 'zoe.one@example.com')
    const first = await confirmationTo('zoe.one@example.com')
    smtp.reject('rcpt')
    try {
      const failed = await requestChange(zoe, 'zoe.two@example.com')
      expect(failed.status).toBe(503)
      expect(await stored(zoe.id)).toEqual({
        email: 'zoe@example.com',
        new_email_address: 'zoe.one@example.com',
        email_address_verified: true,
      })
      await endRepeatWait(zoe.id)
      expect((await server.get('/_api/resend-verify-new-email/zoe', { headers: ORIGIN })).status).toBe(503)
      const cancel = await requestChange(zoe, null)
      expect(cancel.status).toBe(200)
    } finally {
      smtp.reject('accept')
    }
    // The cancel went through (it sends nothing), so the first link is now dead too.
    expect((await server.get(first.apiPath)).status).toBe(404)
  })

  it('keeps the earlier link working after a failed send (checked before any cancel)', async () => {
    const amy = await member('amy')
    await requestChange(amy, 'amy.one@example.com')
    const first = await confirmationTo('amy.one@example.com')
    smtp.reject('data')
    try {
      expect((await requestChange(amy, 'amy.two@example.com')).status).toBe(503)
    } finally {
      smtp.reject('accept')
    }
    expect((await server.get(first.apiPath)).status).toBe(200)
    expect((await stored(amy.id)).email).toBe('amy.one@example.com')
  })
})

describe('super admin', () => {
  it("starts the flow for another user's account, mailing the new address", async () => {
    const bea = await member('bea')
    const response = await server.patch(
      `/_api/users/${bea.id}`,
      { newEmailAddress: 'bea.new@example.com' },
      { token: root, headers: ORIGIN },
    )
    expect(response.status).toBe(200)
    expect((await stored(bea.id)).email).toBe('bea@example.com')
    await confirmationTo('bea.new@example.com')
  })

  it('may still set emailAddress directly', async () => {
    const cal = await member('cal')
    const response = await server.patch(
      `/_api/users/${cal.id}`,
      { emailAddress: 'cal.new@example.com', emailAddressVerified: true },
      { token: root },
    )
    expect(response.status).toBe(200)
    expect(await stored(cal.id)).toEqual({
      email: 'cal.new@example.com',
      new_email_address: null,
      email_address_verified: true,
    })
  })
})
