import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createLocalReq } from 'payload'
import { sendUserNotice } from '../../../plugins/cwa/dist/features/users/email/index.js'
import { renderEmail } from '../../../plugins/cwa/dist/features/users/email/templates.js'
import { captureLogs, type LogCapture } from '../../support/logs'
import { linksIn, type ReceivedMessage } from '../../support/smtp'
import { useMailSite } from '../../support/mail'

/**
 * Notice emails after a completed write (welcome, user_enabled,
 * username_changed, password_changed): templates, `emails.<kind>.enabled`,
 * and the after-write refusal (the write succeeds, no email, an error log).
 */

let root: string

const ofKind = (address: string, subject: RegExp) => (m: ReceivedMessage) =>
  m.to.includes(address) && subject.test(m.subject)

const { server, smtp } = useMailSite({
  websiteName: 'Notice Site',
  user: { emailLinks: { defaultOrigin: 'https://front.example.com' }, emails: { usernameChanged: { enabled: false } } },
})
beforeAll(async () => {
  root = await server.tokenFor('ROLE_SUPER_ADMIN')
})

describe('notice emails', () => {
  it('mails user_enabled with a link to the site when a super admin enables an account', async () => {
    const id = await server.createUser('enid', ['ROLE_USER'], { enabled: false })
    expect((await server.patch(`/_api/users/${id}`, { enabled: true }, { token: root })).status).toBe(200)
    const mail = await smtp.waitFor(ofKind('enid@example.com', /enabled/))
    expect(mail.subject).toBe('Your Notice Site account is enabled')
    expect(mail.text).toContain('has been enabled')
    expect(linksIn(mail)).toEqual(['https://front.example.com/'])
  })

  it('mails a welcome with a link to the site on account creation (verification off)', async () => {
    const created = await server.post(
      '/_api/users',
      { username: 'wendy', emailAddress: 'wendy@example.com', plainPassword: 'wendy pw 123' },
      { token: root },
    )
    expect(created.status).toBe(201)
    const mail = await smtp.waitFor(ofKind('wendy@example.com', /^Welcome/))
    expect(mail.subject).toBe('Welcome to Notice Site')
    expect(linksIn(mail)).toEqual(['https://front.example.com/'])
  })

  it('respects emails.<kind>.enabled: a disabled notice is not sent', async () => {
    const id = await server.createUser('ulla')
    expect((await server.patch(`/_api/users/${id}`, { username: 'ulla2' }, { token: root })).status).toBe(200)
    const payloadReq = await createLocalReq({}, server.payload)
    const user = { id, username: 'ulla2', email: 'ulla@example.com' }
    expect(await sendUserNotice({ payload: server.payload, req: payloadReq }, 'usernameChanged', user)).toBe('disabled')
    await smtp.idle()
    expect(smtp.messages.filter(ofKind('ulla@example.com', /username/))).toHaveLength(0)
  })

  it('mails password_changed without any link', async () => {
    const payloadReq = await createLocalReq({}, server.payload)
    const outcome = await sendUserNotice({ payload: server.payload, req: payloadReq }, 'passwordChanged', {
      id: 'x',
      username: 'paul',
      email: 'paul@example.com',
    })
    expect(outcome).toBe('sent')
    const mail = await smtp.waitFor(ofKind('paul@example.com', /password has changed/))
    expect(mail.html).toContain('<p>')
    expect(linksIn(mail)).toEqual([])
  })

  it('escapes values in the HTML part (markup injection through a username or the site name)', () => {
    const email = renderEmail('user_enabled', 'S', {
      websiteName: 'A & B',
      username: '<img src=x onerror=alert(1)>',
      link: 'https://x.example/?a=1&b="2"',
    })
    expect(email.html).not.toContain('<img')
    expect(email.html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(email.html).toContain('A &amp; B')
    expect(email.html).toContain('href="https://x.example/?a=1&amp;b=&quot;2&quot;"')
    expect(email.text).toContain('<img src=x onerror=alert(1)>')
  })
})

describe('user_tokens collection', () => {
  it('is reachable by nobody: not a JSON-LD resource, and closed on Payload REST even to a super admin (token theft)', async () => {
    await server.get('/_api/password/reset/request/' + (await server.createUser('tok').then(() => 'tok')))
    expect((await server.sql('SELECT count(*)::int AS n FROM _acb_user_tokens'))[0].n).toBeGreaterThan(0)
    const entrypoint = await server.get('/_api/')
    expect(entrypoint.text).not.toMatch(/user_tokens|userTokens|UserToken/)
    expect((await server.get('/_api/user_tokens', { token: root })).status).toBe(404)
    for (const path of ['/api/user_tokens', '/api/user_tokens?depth=0&limit=100']) {
      const response = await server.get(path, { headers: { cookie: `api_component=${encodeURIComponent(root)}` } })
      expect(response.status).toBe(403)
      expect(response.text).not.toMatch(/tokenHash|token_hash/)
    }
  })
})

describe('refused links after a completed write', () => {
  const { server: bare, smtp: bareSmtp } = useMailSite({
    users: { allowRegistration: true },
    user: { emailVerification: { verifyOnRegister: true } },
  })
  let errors: LogCapture
  beforeAll(() => {
    errors = captureLogs(bare.payload)
  })
  afterAll(() => errors.restore())

  it('registers the user (201) without an email and logs the refusal at error level', async () => {
    errors.clear()
    const response = await bare.post('/_api/users', {
      username: 'noorigin',
      emailAddress: 'noorigin@example.com',
      plainPassword: 'no origin pw 1',
    })
    expect(response.status).toBe(201)
    expect(await bare.sql("SELECT 1 FROM _acb_users WHERE username = 'noorigin'")).toHaveLength(1)
    await bareSmtp.idle()
    expect(bareSmtp.to('noorigin@example.com')).toHaveLength(0)
    expect(errors.logged('Email link refused: the email was not sent', { email: 'welcome' })).toBe(true)
  })

  it('enables an account (200) without an email and logs the refusal at error level', async () => {
    const token = await bare.tokenFor('ROLE_SUPER_ADMIN')
    const id = await bare.createUser('sleeper', ['ROLE_USER'], { enabled: false })
    errors.clear()
    const response = await bare.patch(`/_api/users/${id}`, { enabled: true }, { token })
    expect(response.status).toBe(200)
    expect((await bare.sql('SELECT enabled FROM _acb_users WHERE id = $1', [id]))[0].enabled).toBe(true)
    await bareSmtp.idle()
    expect(bareSmtp.messages.filter(ofKind('sleeper@example.com', /enabled/))).toHaveLength(0)
    expect(errors.logged('Email link refused: the email was not sent', { email: 'user_enabled' })).toBe(true)
  })
})
