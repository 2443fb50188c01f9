import { beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD } from '../support/server'
import { useMailSite } from '../support/mail'

/**
 * Payload's own REST API must not offer a second password reset that skips
 * the link rules, throttling and hashed single-use tokens of the email flows.
 */

const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'https://front.example' } } })
beforeAll(async () => {
  await server.createUser('jane', ['ROLE_USER'])
})

describe("Payload's unlock endpoint", () => {
  it('security: a signed-in user cannot unlock another account to keep guessing its password (403, lock kept)', async () => {
    await server.createUser('victim', ['ROLE_USER'])
    await server.sql(
      `UPDATE _acb_users SET login_attempts = 10, lock_until = now() + interval '1 hour' WHERE username = 'victim'`,
    )
    const attacker = await server.login('jane')
    const response = await server.request(
      'POST',
      '/api/users/unlock',
      { username: 'victim' },
      { token: attacker, contentType: 'application/json' },
    )
    expect(response.status).toBe(403)
    const rows = await server.sql(`SELECT login_attempts, lock_until FROM _acb_users WHERE username = 'victim'`)
    expect(Number(rows[0].login_attempts)).toBe(10)
    expect(rows[0].lock_until).not.toBeNull()
  })
})

describe("Payload's password reset endpoints", () => {
  it('security: POST /api/users/forgot-password cannot mail an unthrottled reset link (404, nothing sent)', async () => {
    const response = await server.request(
      'POST',
      '/api/users/forgot-password',
      { email: 'jane@example.com' },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(404)
    expect(JSON.stringify(response.body)).toContain('/_api/password/reset/request/')
    await smtp.idle()
    expect(smtp.messages).toHaveLength(0)
  })

  it('security: POST /api/users/reset-password cannot set a password with a Payload token (404)', async () => {
    const response = await server.request(
      'POST',
      '/api/users/reset-password',
      { token: 'x', password: 'new password 1' },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(404)
    expect(
      (
        await server.request(
          'POST',
          '/_api/login',
          { username: 'jane', password: PASSWORD },
          { contentType: 'application/json' },
        )
      ).status,
    ).toBe(204)
  })

  it('the flow of the API still sends the reset email', async () => {
    const response = await server.get('/_api/password/reset/request/jane')
    expect(response.status).toBe(200)
    await smtp.waitFor((m) => m.to.includes('jane@example.com'))
  })
})
