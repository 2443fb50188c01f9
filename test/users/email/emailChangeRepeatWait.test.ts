import { describe, expect, it } from '@jest/globals'
import { useMailSite } from '../../support/mail'
import type { ReceivedMessage } from '../../support/smtp'
import { theLink } from '../../support/emailFlows'

/**
 * The repeat wait of email change confirmations (contract, "Limits"): at
 * most one confirmation email per wait (user.newEmailConfirmation.
 * repeatTtlSeconds, 300 s) whatever the account holder does to the pending
 * address in between, so the flow cannot be turned into a mail cannon
 * aimed at someone else's mailbox. Real HTTP, real PostgreSQL, real SMTP.
 */

const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'https://front.example' } } })

/** The API path of the confirmation link in a mail. */
const confirmPath = (mail: ReceivedMessage) =>
  `/_api${theLink(mail).pathname.replace('/confirm-new-email/', '/confirm-email/')}`
const confirmations = (address: string) => smtp.to(address).filter((m) => /confirm/i.test(m.subject)).length

async function member(username: string) {
  const id = await server.createUser(username)
  return { id, token: await server.login(username) }
}
const change = (who: { id: string; token: string }, newEmailAddress: string | null) =>
  server.patch(`/_api/users/${who.id}`, { newEmailAddress }, { token: who.token })

describe('email change confirmations: repeat wait', () => {
  it('mail cannon by alternating the pending address (repeat-wait bypass): 10 PATCHes are all saved but send at most 2 emails', async () => {
    const gun = await member('cannon')
    const targets = ['target.one@outside.example', 'target.two@outside.example']
    for (let i = 0; i < 10; i++) {
      const response = await change(gun, targets[i % 2]!)
      expect(response.status).toBe(200)
      expect(response.body.newEmailAddress).toBe(targets[i % 2])
    }
    await smtp.idle()
    // The first request and one immediate replacement: the repeat wait then holds.
    expect(confirmations(targets[0]!) + confirmations(targets[1]!)).toBe(2)
    const throttled = await server.get('/_api/resend-verify-new-email/cannon')
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(290)
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(300)
    // Every earlier link is dead; once the wait is over the pending address gets a working one.
    await server.sql("UPDATE _acb_user_tokens SET sent_at = sent_at - interval '301 seconds' WHERE user_id = $1", [
      gun.id,
    ])
    expect((await server.get('/_api/resend-verify-new-email/cannon')).status).toBe(200)
    await smtp.waitFor(() => confirmations(targets[1]!) === 2)
    expect((await server.get(confirmPath(smtp.to(targets[1]!).at(-1)!))).status).toBe(200)
  })

  it('mail cannon by cancelling and requesting again (A, null, A, null...): 10 PATCHes send at most 2 emails', async () => {
    const gun = await member('canceller')
    const target = 'target.three@outside.example'
    for (let i = 0; i < 10; i++) {
      expect((await change(gun, i % 2 === 0 ? target : null)).status).toBe(200)
    }
    await smtp.idle()
    expect(confirmations(target)).toBe(2)
    expect(
      (await server.sql('SELECT new_email_address FROM _acb_users WHERE id = $1', [gun.id]))[0].new_email_address,
    ).toBeNull()
  })

  it('mail cannon that confirms an address of its own in between (repeat-wait reset by a used link): the target still gets one email per wait', async () => {
    const gun = await member('confirmer')
    const target = 'target.four@outside.example'
    expect((await change(gun, target)).status).toBe(200)
    expect((await change(gun, 'own.one@attacker.example')).status).toBe(200)
    const own = await smtp.waitFor((m) => m.to.includes('own.one@attacker.example'))
    expect((await server.get(confirmPath(own))).status).toBe(200)
    expect((await change(gun, target)).status).toBe(200)
    expect((await change(gun, 'own.two@attacker.example')).status).toBe(200)
    await smtp.idle()
    expect(confirmations(target)).toBe(1)
    expect(confirmations('own.two@attacker.example')).toBe(0)
  })

  it('a cancel still allows one new request at once, whose link works; the cancelled link is dead', async () => {
    const kim = await member('kim')
    await change(kim, 'kim.one@example.com')
    const first = await smtp.waitFor((m) => m.to.includes('kim.one@example.com'))
    expect((await change(kim, null)).status).toBe(200)
    await change(kim, 'kim.two@example.com')
    const second = await smtp.waitFor((m) => m.to.includes('kim.two@example.com'))
    expect((await server.get(confirmPath(first))).status).toBe(404)
    expect((await server.get(confirmPath(second))).status).toBe(200)
  })
})
