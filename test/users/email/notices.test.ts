import { beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD } from '../../support/server'
import { linksIn, type ReceivedMessage } from '../../support/smtp'
import { useMailSite } from '../../support/mail'

/**
 * Notice emails after completed user writes (contract, "Outbound emails",
 * "Email links" 3 and 4): welcome (no verification: a link to the site), user_enabled,
 * username_changed and password_changed (no links), through a real SMTP
 * server. The write stands when a notice cannot be sent.
 */

let root: string

const mailsTo = (address: string, subject: RegExp): ReceivedMessage[] =>
  smtp.to(address).filter((m) => subject.test(m.subject))

const { server, smtp } = useMailSite({
  users: { allowRegistration: true },
  user: { emailVerification: { defaultValue: true }, emailLinks: { defaultOrigin: 'https://front.example' } },
})
beforeAll(async () => {
  await server.createUser('root', ['ROLE_SUPER_ADMIN'])
  root = await server.login('root')
})

describe('welcome', () => {
  it('welcomes a registration without verifyOnRegister: a link to the site, no token, verified by defaultValue', async () => {
    const response = await server.post('/_api/users', {
      username: 'walt',
      emailAddress: 'walt@example.com',
      plainPassword: 'walt pass 123',
    })
    expect(response.status).toBe(201)
    expect(response.body.emailAddressVerified).toBe(true)
    const mail = await smtp.waitFor((m) => m.to.includes('walt@example.com'))
    expect(mail.subject).toBe('Welcome to CWA Reference Site')
    expect(linksIn(mail)).toEqual(['https://front.example/'])
  })

  it('welcomes a user a super admin creates through the API, but not one created by a script or the operator command (Local API)', async () => {
    expect(
      (
        await server.post(
          '/_api/users',
          { username: 'hired', emailAddress: 'hired@example.com', plainPassword: 'hired pass 123' },
          { token: root },
        )
      ).status,
    ).toBe(201)
    await smtp.waitFor((m) => m.to.includes('hired@example.com') && /welcome/i.test(m.subject))
    await server.createUser('scripted')
    await smtp.idle()
    expect(smtp.to('scripted@example.com')).toEqual([])
  })
})

describe('account changes', () => {
  it('tells the user their username changed, with no link', async () => {
    const id = await server.createUser('olduser')
    const token = await server.login('olduser')
    const response = await server.patch(`/_api/users/${id}`, { username: 'newuser' }, { token })
    expect(response.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('olduser@example.com') && /username/i.test(m.subject))
    expect(mail.subject).toBe('Your CWA Reference Site username has changed')
    expect(mail.text).toContain('newuser')
    expect(linksIn(mail)).toEqual([])
  })

  it('tells the user their password changed, with no link and without the password', async () => {
    const id = await server.createUser('pwuser')
    const token = await server.login('pwuser')
    const newPassword = 'pwuser brand new 55'
    expect((await server.patch(`/_api/users/${id}`, { plainPassword: newPassword }, { token })).status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('pwuser@example.com') && /password/i.test(m.subject))
    expect(mail.subject).toBe('Your CWA Reference Site password has changed')
    expect(linksIn(mail)).toEqual([])
    expect(mail.raw).not.toContain(newPassword)
  })

  it('sends no username or password notice for a write that changes neither (control)', async () => {
    const id = await server.createUser('quiet')
    const token = await server.login('quiet')
    expect(
      (await server.patch(`/_api/users/${id}`, { username: 'quiet', newEmailAddress: null }, { token })).status,
    ).toBe(200)
    await smtp.idle()
    expect(mailsTo('quiet@example.com', /username|password|enabled/i)).toEqual([])
  })

  it('tells a user their account was enabled when a super admin enables it, with a link to the site', async () => {
    const id = await server.createUser('sleeper', ['ROLE_USER'], { enabled: false })
    const response = await server.patch(`/_api/users/${id}`, { enabled: true }, { token: root })
    expect(response.status).toBe(200)
    const mail = await smtp.waitFor((m) => m.to.includes('sleeper@example.com') && /enabled/i.test(m.subject))
    expect(mail.subject).toBe('Your CWA Reference Site account is enabled')
    expect(linksIn(mail)).toEqual(['https://front.example/'])
    expect(await server.login('sleeper', PASSWORD)).toBeTruthy()
  })

  it('sends no user_enabled email when enabled stays true or goes to false (control)', async () => {
    const id = await server.createUser('awake')
    expect((await server.patch(`/_api/users/${id}`, { enabled: true }, { token: root })).status).toBe(200)
    expect((await server.patch(`/_api/users/${id}`, { enabled: false }, { token: root })).status).toBe(200)
    await smtp.idle()
    expect(mailsTo('awake@example.com', /enabled/i)).toEqual([])
  })

  it('keeps the write when the notice cannot be sent (transport failure)', async () => {
    const id = await server.createUser('unlucky')
    const token = await server.login('unlucky')
    smtp.reject('rcpt')
    try {
      const response = await server.patch(`/_api/users/${id}`, { username: 'unlucky2' }, { token })
      expect(response.status).toBe(200)
    } finally {
      smtp.reject('accept')
    }
    expect((await server.sql('SELECT username FROM _acb_users WHERE id = $1', [id]))[0].username).toBe('unlucky2')
  })
})
