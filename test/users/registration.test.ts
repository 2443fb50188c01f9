import { beforeAll, describe, expect, it } from '@jest/globals'
import { linksIn } from '../support/smtp'
import { loggedDuring } from '../support/logs'
import { useMailSite } from '../support/mail'

/**
 * Registration (POST /users opened by users.allowRegistration) with
 * verifyOnRegister: the account starts unverified and the welcome email
 * carries the verification link. Emails through a real SMTP server.
 */

const FRONT = 'https://front.example'
const ORIGIN = { origin: FRONT }

const register = (body: Record<string, unknown>, headers: Record<string, string> = ORIGIN) =>
  server.post('/_api/users', body, { headers })
const paths = (body: { violations?: Array<{ propertyPath: string }> }) =>
  (body.violations ?? []).map((v) => v.propertyPath)
const row = async (username: string) =>
  (
    await server.sql('SELECT id, email, enabled, email_address_verified, hash FROM _acb_users WHERE username = $1', [
      username,
    ])
  )[0]

const { server, smtp } = useMailSite({
  users: { allowRegistration: true },
  user: { emailVerification: { verifyOnRegister: true }, emailLinks: { allowedOrigins: ['https://front\\.example'] } },
})
beforeAll(async () => {
  await server.createUser('taken')
})

describe('anonymous registration', () => {
  it('creates an unverified ROLE_USER (201) whatever roles or flags the body claims (privilege escalation at sign-up)', async () => {
    const response = await register({
      username: 'Newbie',
      emailAddress: 'newbie@example.com',
      plainPassword: 'newbie pass 123',
      roles: ['ROLE_SUPER_ADMIN'],
      enabled: false,
      emailAddressVerified: true,
    })
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({
      username: 'newbie',
      emailAddress: 'newbie@example.com',
      roles: ['ROLE_USER'],
      emailAddressVerified: false,
      newEmailAddress: null,
    })
    expect(response.body).not.toHaveProperty('enabled')
    expect(response.body).not.toHaveProperty('plainPassword')
    const stored = await row('newbie')
    expect(stored).toMatchObject({ enabled: true, email_address_verified: false })
    expect(stored.hash).toMatch(/^pbkdf2-sha256-v1:/)
    const roles = await server.sql('SELECT value FROM _acb_users_roles WHERE parent_id = $1', [stored.id])
    expect(roles.map((r) => r.value)).toEqual(['ROLE_USER'])
  })

  it('sends the welcome email with the verification link; the link verifies the address', async () => {
    const mail = await smtp.waitFor((m) => m.to.includes('newbie@example.com'))
    expect(mail.subject).toBe('Welcome to CWA Reference Site')
    const [link] = linksIn(mail)
    const match = /^https:\/\/front\.example\/verify-email\/newbie\/([A-Za-z0-9_-]{20,})$/.exec(link ?? '')
    expect(match).not.toBeNull()
    expect((await server.get(`/_api/verify-email/newbie/${match![1]}`)).status).toBe(200)
    expect((await row('newbie')).email_address_verified).toBe(true)
  })

  it('requires plainPassword (validation group User:password:create): 422 on plainPassword, nothing saved', async () => {
    const response = await register({ username: 'nopass', emailAddress: 'nopass@example.com' })
    expect(response.status).toBe(422)
    expect(paths(response.body)).toContain('plainPassword')
    expect(await row('nopass')).toBeUndefined()
  })

  it('refuses a taken username (422 on username) and a taken email (422 on emailAddress)', async () => {
    const byName = await register({
      username: 'TAKEN',
      emailAddress: 'other1@example.com',
      plainPassword: 'some pass 123',
    })
    expect(byName.status).toBe(422)
    expect(paths(byName.body)).toEqual(['username'])
    const byEmail = await register({
      username: 'other2',
      emailAddress: 'Taken@Example.com',
      plainPassword: 'some pass 123',
    })
    expect(byEmail.status).toBe(422)
    expect(paths(byEmail.body)).toEqual(['emailAddress'])
    expect(await row('other1')).toBeUndefined()
    expect(await row('other2')).toBeUndefined()
  })

  it('registers without an email when the link is refused (no allowed Origin), logging the refusal at error level', async () => {
    let status = 0
    const logged = await loggedDuring(server.payload, async () => {
      status = (
        await register(
          { username: 'noorigin', emailAddress: 'noorigin@example.com', plainPassword: 'some pass 123' },
          {},
        )
      ).status
    })
    expect(status).toBe(201)
    expect(await row('noorigin')).toMatchObject({ email_address_verified: false })
    expect(logged).toMatch(/link refused/i)
    await smtp.idle()
    expect(smtp.to('noorigin@example.com')).toHaveLength(0)
  })

  it('registers even when the welcome email cannot be sent (transport failure logged; resend-verify-email can follow)', async () => {
    smtp.reject('rcpt')
    let status = 0
    let logged = ''
    try {
      logged = await loggedDuring(server.payload, async () => {
        status = (
          await register({ username: 'mailfail', emailAddress: 'mailfail@example.com', plainPassword: 'some pass 123' })
        ).status
      })
    } finally {
      smtp.reject('accept')
    }
    expect(status).toBe(201)
    expect(await row('mailfail')).toMatchObject({ email_address_verified: false })
    expect(logged).toMatch(/could not be sent/i)
    // Nothing was stored for the unsent email, so no repeat wait blocks the resend.
    expect((await server.get('/_api/resend-verify-email/mailfail', { headers: ORIGIN })).status).toBe(200)
    await smtp.waitFor((m) => m.to.includes('mailfail@example.com'))
  })
})

describe('account enabled without a usable link origin', () => {
  it('enables the account (200) without an email, logging the refusal at error level', async () => {
    await server.createUser('admin_root', ['ROLE_SUPER_ADMIN'])
    const root = await server.login('admin_root')
    const id = await server.createUser('dormant', ['ROLE_USER'], { enabled: false })
    let status = 0
    const logged = await loggedDuring(server.payload, async () => {
      status = (await server.patch(`/_api/users/${id}`, { enabled: true }, { token: root })).status
    })
    expect(status).toBe(200)
    expect((await server.sql('SELECT enabled FROM _acb_users WHERE id = $1', [id]))[0].enabled).toBe(true)
    expect(logged).toMatch(/link refused/i)
    await smtp.idle()
    expect(smtp.to('dormant@example.com').filter((m) => /enabled/i.test(m.subject))).toHaveLength(0)
  })
})
