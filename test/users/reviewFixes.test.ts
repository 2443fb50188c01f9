import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { linkParts, sha256, theLink } from '../email/helpers'
import { cookieHeader, cookiesOf, expiredJwt, JWT_COOKIE, loginSession, REFRESH_COOKIE, usableTokens } from '../session/helpers'
import { startTestServer, type TestServer } from '../support/server'
import { type ReceivedMessage, startSmtpServer, type TestSmtpServer } from '../support/smtp'

/**
 * Fixes after the security review of the user email flows, each against
 * the attack it closes, end to end: real HTTP, real PostgreSQL, real SMTP.
 * One server: accounts concealed, unverified users may not log in, links
 * built on a default origin, a short password-reset repeat wait (60 s).
 */

const FRONT = 'https://front.example'

let server: TestServer
let smtp: TestSmtpServer

const settle = () => new Promise((resolve) => setTimeout(resolve, 300))
/** The API path of the confirmation link in a mail. */
const confirmPath = (mail: ReceivedMessage) => `/_api${theLink(mail).pathname.replace('/confirm-new-email/', '/confirm-email/')}`
const confirmations = (address: string) => smtp.to(address).filter((m) => /confirm/i.test(m.subject)).length

/** Runs `fn` and returns what payload.logger.error was given meanwhile, as text. */
async function errorsLoggedDuring(fn: () => Promise<void>): Promise<string> {
  const logger = server.payload.logger
  const original = logger.error
  const seen: unknown[] = []
  logger.error = ((...args: unknown[]) => {
    seen.push(args)
    return (original as (...a: unknown[]) => void).apply(logger, args)
  }) as typeof logger.error
  try {
    await fn()
  } finally {
    logger.error = original
  }
  return JSON.stringify(seen, (_key, value: unknown) => (value instanceof Error ? { message: value.message } : value))
}

beforeAll(async () => {
  smtp = await startSmtpServer()
  server = await startTestServer({
    mailerDsn: smtp.dsn,
    options: {
      user: {
        emailLinks: { defaultOrigin: FRONT },
        emailVerification: { denyUnverifiedLogin: true },
        passwordReset: { concealUnknownUsers: true, repeatTtlSeconds: 60 },
      },
    },
  })
})
afterAll(async () => {
  await server?.close()
  await smtp?.close()
})

describe('email change confirmations: repeat wait', () => {
  async function member(username: string) {
    const id = await server.createUser(username)
    return { id, token: await server.login(username) }
  }
  const change = (who: { id: string; token: string }, newEmailAddress: string | null) =>
    server.patch(`/_api/users/${who.id}`, { newEmailAddress }, { token: who.token })

  it('mail cannon by alternating the pending address (repeat-wait bypass): 10 PATCHes are all saved but send at most 2 emails', async () => {
    const gun = await member('cannon')
    const targets = ['target.one@outside.example', 'target.two@outside.example']
    for (let i = 0; i < 10; i++) {
      const response = await change(gun, targets[i % 2]!)
      expect(response.status).toBe(200)
      expect(response.body.newEmailAddress).toBe(targets[i % 2])
    }
    await settle()
    // The first request and one immediate replacement: the repeat wait then holds.
    expect(confirmations(targets[0]!) + confirmations(targets[1]!)).toBe(2)
    const throttled = await server.get('/_api/resend-verify-new-email/cannon')
    expect(throttled.status).toBe(429)
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(290)
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(300)
    // Every earlier link is dead; once the wait is over the pending address gets a working one.
    await server.sql("UPDATE _acb_user_tokens SET sent_at = sent_at - interval '301 seconds' WHERE user_id = $1", [gun.id])
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
    await settle()
    expect(confirmations(target)).toBe(2)
    expect((await server.sql('SELECT new_email_address FROM _acb_users WHERE id = $1', [gun.id]))[0].new_email_address).toBeNull()
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
    await settle()
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

describe('password reset by email address', () => {
  it("reset-email hijack through a username equal to another account's address: the address's owner gets the email", async () => {
    await server.createUser('alice', ['ROLE_USER'], { email: 'alice@corp.example' })
    await server.createUser('alice@corp.example', ['ROLE_USER'], { email: 'mallory@evil.example' })
    const response = await server.get('/_api/password/reset/request/ALICE%40corp.example')
    expect(response.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('alice@corp.example'))
    expect(linkParts(theLink(mail)).username).toBe('alice')
    await settle()
    expect(smtp.to('mallory@evil.example')).toHaveLength(0)
    // The look-alike account still resets through its own address.
    expect((await server.get('/_api/password/reset/request/mallory%40evil.example')).status).toBe(200)
    const own = await smtp.waitFor((m) => m.to.includes('mallory@evil.example'))
    expect(linkParts(theLink(own)).username).toBe('alice@corp.example')
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

describe('unverified users (denyUnverifiedLogin)', () => {
  it("a direct address change by the account holder mails a verification link to the new address, which verifies it", async () => {
    const id = await server.createUser('mover')
    const token = await server.login('mover')
    const response = await server.patch(`/_api/users/${id}`, { emailAddress: 'mover.new@example.com' }, { token })
    expect(response.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('mover.new@example.com'))
    const { username, token: verification } = linkParts(theLink(mail))
    expect((await server.post('/_api/login', { username: 'mover', password: 'correct horse battery staple' }, { contentType: 'application/json' })).status).toBe(401)
    expect((await server.get(`/_api/verify-email/${username}/${encodeURIComponent(verification)}`)).status).toBe(200)
    expect((await server.sql('SELECT email_address_verified FROM _acb_users WHERE id = $1', [id]))[0].email_address_verified).toBe(true)
  })

  it('an unverified session kept alive by refreshing (login check bypass): 401 on /token/refresh and transparently, cookies cleared, token revoked', async () => {
    const id = await server.createUser('drifter')
    const direct = await loginSession(server, 'drifter')
    const other = await loginSession(server, 'drifter')
    await server.sql('UPDATE _acb_users SET email_address_verified = false WHERE id = $1', [id])

    const refused = await server.post('/_api/token/refresh', undefined, { headers: { cookie: cookieHeader({ refresh: direct.refresh }) } })
    expect(refused.status).toBe(401)
    const cleared = cookiesOf(refused.headers)
    expect([cleared.get(JWT_COOKIE)?.value, cleared.get(REFRESH_COOKIE)?.value]).toEqual(['', ''])
    expect(await usableTokens(server, id)).toBe(1)

    const transparent = await server.get('/_api/me', { headers: { cookie: cookieHeader({ jwt: await expiredJwt(id, 'drifter'), refresh: other.refresh }) } })
    expect(transparent.status).toBe(401)
    expect(cookiesOf(transparent.headers).get(REFRESH_COOKIE)?.value).toBe('')
    expect(await usableTokens(server, id)).toBe(0)
  })
})

describe('GET /verify-email', () => {
  it('a failed update leaves the link usable (one transaction), and the 500 log holds no token (token leak into logs)', async () => {
    const id = await server.createUser('brittle', ['ROLE_USER'], { emailAddressVerified: false })
    expect((await server.get('/_api/resend-verify-email/brittle')).status).toBe(200)
    const { token } = linkParts(theLink(await smtp.waitFor((m) => m.to.includes('brittle@example.com'))))
    const path = `/_api/verify-email/brittle/${encodeURIComponent(token)}`
    await server.sql(`CREATE FUNCTION review_fixes_fail() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.username = 'brittle' THEN RAISE EXCEPTION 'simulated write failure'; END IF; RETURN NEW; END $$`)
    await server.sql('CREATE TRIGGER review_fixes_fail BEFORE UPDATE ON _acb_users FOR EACH ROW EXECUTE FUNCTION review_fixes_fail()')
    let logged = ''
    try {
      logged = await errorsLoggedDuring(async () => {
        expect((await server.get(path)).status).toBe(500)
      })
    } finally {
      await server.sql('DROP TRIGGER review_fixes_fail ON _acb_users')
      await server.sql('DROP FUNCTION review_fixes_fail()')
    }
    expect(logged).toContain('JSON-LD request failed')
    expect(logged).not.toContain(token)
    expect(logged).not.toContain(encodeURIComponent(token))
    expect((await server.sql("SELECT count(*)::int AS n FROM _acb_user_tokens WHERE token_hash = $1", [sha256(token)]))[0].n).toBe(1)
    expect((await server.get(path)).status).toBe(200)
    expect((await server.sql('SELECT email_address_verified FROM _acb_users WHERE id = $1', [id]))[0].email_address_verified).toBe(true)
  })
})

describe('hardening', () => {
  it('the token-bearing password_reset form is never stored by a cache (token leak through a shared cache): private, no-store', async () => {
    const response = await server.get('/_api/component/forms/password_reset?username=someone&token=secret-token-value')
    expect(response.status).toBe(200)
    expect(response.text).toContain('secret-token-value')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const submitted = await server.patch('/_api/component/forms/password_reset/submit', { password_reset: { token: 'secret-token-value' } }, {})
    expect(submitted.headers.get('cache-control')).toBe('private, no-store')
  })

  it('placeholder flood with distinct unknown identifiers (unbounded table growth): a placeholder past its repeat wait is deleted by the next insert', async () => {
    const placeholders = async () => (await server.sql('SELECT count(*)::int AS n FROM _acb_user_tokens WHERE user_id IS NULL'))[0].n as number
    await server.sql('DELETE FROM _acb_user_tokens WHERE user_id IS NULL')
    expect((await server.get('/_api/password/reset/request/ghost-one')).status).toBe(200)
    expect(await placeholders()).toBe(1)
    // Two hours ago: its 60 s wait and its 3600 s validity are over.
    await server.sql("UPDATE _acb_user_tokens SET sent_at = now() - interval '2 hours', expires_at = now() - interval '1 hour' WHERE user_id IS NULL")
    expect((await server.get('/_api/password/reset/request/ghost-two')).status).toBe(200)
    expect(await placeholders()).toBe(1)
    // A placeholder still in its wait stays (it is the throttle).
    expect((await server.get('/_api/password/reset/request/ghost-three')).status).toBe(200)
    expect(await placeholders()).toBe(2)
    expect((await server.get('/_api/password/reset/request/ghost-two')).status).toBe(429)
  })
})
