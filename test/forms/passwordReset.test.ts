/**
 * The password_reset form end to end (contract: Email flows,
 * `POST /component/forms/password_reset/submit`): the reset email is
 * requested through the real endpoint and delivered to a real SMTP server
 * on loopback; the token is taken from the emailed link; the new password
 * is proved by logging in. Also: registration through the register form
 * is refused while registration is closed (the site default).
 */
import { describe, expect, it } from '@jest/globals'
import { linksIn } from '../support/smtp'
import { PASSWORD, type TestResponse } from '../support/server'
import { useMailSite } from '../support/mail'

const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'http://front.test' } } })

const submit = (body: unknown) =>
  server.post('/_api/component/forms/password_reset/submit', body, { contentType: 'application/json' })
const body = (username: string, token: string, first: string, second = first) => ({
  password_reset: { username, token, plainPassword: { first, second } },
})
const loginStatus = async (username: string, password: string) =>
  (await server.request('POST', '/_api/login', { username, password }, { contentType: 'application/json' })).status

function fieldErrors(response: TestResponse): Record<string, string[]> {
  return Object.fromEntries(
    (response.body.formView.children as Array<{ vars: { name: string; errors: string[] } }>)
      .filter((c) => c.vars.errors.length > 0)
      .map((c) => [c.vars.name, c.vars.errors]),
  )
}

/** Requests a reset email for `username` and returns the username and token of the emailed link. */
async function emailedLink(username: string): Promise<{ username: string; token: string }> {
  const requested = await server.get(`/_api/password/reset/request/${username}`)
  expect(requested.status).toBe(200)
  // Other mail (the welcome email of a new account) may arrive too: the reset email is the one with the reset link.
  const resetLink = (l: string) => l.includes('/reset-password/')
  const mail = await smtp.waitFor((m) => m.to.includes(`${username}@example.com`) && linksIn(m).some(resetLink))
  smtp.clear()
  const link = linksIn(mail).find(resetLink)!
  const [, name, token] = /\/reset-password\/([^/]+)\/([^/?#]+)/.exec(new URL(link).pathname)!
  return { username: decodeURIComponent(name!), token: decodeURIComponent(token!) }
}

describe('password_reset', () => {
  it('the emailed link pre-fills the form; a valid submit sets the password (201) and the new password logs in', async () => {
    await server.createUser('resetter')
    const link = await emailedLink('resetter')
    expect(link.username).toBe('resetter')
    const view = (
      await server.get(
        `/_api/component/forms/password_reset?username=${encodeURIComponent(link.username)}&token=${encodeURIComponent(link.token)}`,
      )
    ).body.formView
    expect(view.children.slice(0, 2).map((c: { vars: { value: string } }) => c.vars.value)).toEqual([
      link.username,
      link.token,
    ])

    const response = await submit(body(link.username, link.token, 'reset-pass-123'))
    expect(response.status).toBe(201)
    expect(response.body['@id']).toBe('/_api/component/forms/password_reset')
    expect(response.text).not.toContain('reset-pass-123')
    expect(await loginStatus('resetter', 'reset-pass-123')).toBe(204)
    expect(await loginStatus('resetter', PASSWORD)).toBe(401)

    // A used token is a 404 (security: an intercepted link cannot be replayed).
    const replay = await submit(body(link.username, link.token, 'another-pass-456'))
    expect(replay.status).toBe(404)
    expect(await loginStatus('resetter', 'reset-pass-123')).toBe(204)
  })

  it('422 with per-field errors (mismatch, too short, blank); the link keeps working afterwards', async () => {
    await server.createUser('resetter2')
    const link = await emailedLink('resetter2')
    const mismatch = await submit(body(link.username, link.token, 'first-pass-1', 'second-pass-2'))
    expect([mismatch.status, fieldErrors(mismatch)]).toEqual([
      422,
      { plainPassword: ['The password fields must match.'] },
    ])
    expect(mismatch.body['@type']).toBe('Form')
    expect(mismatch.body.violations).toEqual([
      { propertyPath: 'plainPassword', message: 'The password fields must match.', code: 'not_equal' },
    ])
    expect(mismatch.text).not.toContain('first-pass-1')

    const short = await submit(body(link.username, link.token, 'ab'))
    expect(short.status).toBe(422)
    expect(Object.keys(fieldErrors(short))).toEqual(['plainPassword'])

    const blank = await submit({ password_reset: {} })
    expect([blank.status, fieldErrors(blank)]).toEqual([
      422,
      {
        username: ['This value should not be blank.'],
        token: ['This value should not be blank.'],
        plainPassword: ['This value should not be blank.'],
      },
    ])

    expect((await submit(body(link.username, link.token, 'finally-valid-1'))).status).toBe(201)
    expect(await loginStatus('resetter2', 'finally-valid-1')).toBe(204)
  })

  it('a bad token or an unknown user is a 404 and changes nothing (security: guessed tokens)', async () => {
    await server.createUser('resetter3')
    const link = await emailedLink('resetter3')
    expect((await submit(body(link.username, `${link.token}x`, 'guessed-pass-1'))).status).toBe(404)
    expect((await submit(body(link.username, 'not-a-token', 'guessed-pass-1'))).status).toBe(404)
    expect((await submit(body('nobody_here', link.token, 'guessed-pass-1'))).status).toBe(404)
    const other = await server.createUser('resetter4')
    expect(other).toBeTruthy()
    // Another user's token does not reset this one.
    expect((await submit(body('resetter4', link.token, 'guessed-pass-1'))).status).toBe(404)
    expect(await loginStatus('resetter3', PASSWORD)).toBe(204)
    expect(await loginStatus('resetter4', PASSWORD)).toBe(204)
  })

  it('PATCH validates without using the token', async () => {
    await server.createUser('resetter5')
    const link = await emailedLink('resetter5')
    const patched = await server.patch(
      '/_api/component/forms/password_reset/submit',
      body(link.username, link.token, 'patched-pass-1'),
    )
    expect(patched.status).toBe(200)
    expect(await loginStatus('resetter5', PASSWORD)).toBe(204)
    expect((await submit(body(link.username, link.token, 'patched-pass-1'))).status).toBe(201)
  })
})

describe('password_reset and shared caches', () => {
  it('the token-bearing password_reset form is never stored by a cache (token leak through a shared cache): private, no-store', async () => {
    const response = await server.get('/_api/component/forms/password_reset?username=someone&token=secret-token-value')
    expect(response.status).toBe(200)
    expect(response.text).toContain('secret-token-value')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const submitted = await server.patch(
      '/_api/component/forms/password_reset/submit',
      { password_reset: { token: 'secret-token-value' } },
      {},
    )
    expect(submitted.headers.get('cache-control')).toBe('private, no-store')
  })
})

describe('register while registration is closed', () => {
  it('anonymous and signed-in submits are refused with 403; nothing is created', async () => {
    const registration = {
      user_register: {
        username: 'intruder',
        emailAddress: 'intruder@example.com',
        plainPassword: { first: 'intruder-1', second: 'intruder-1' },
      },
    }
    expect(
      (await server.post('/_api/component/forms/register/submit', registration, { contentType: 'application/json' }))
        .status,
    ).toBe(403)
    const token = await server.tokenFor('ROLE_ADMIN')
    expect(
      (
        await server.post('/_api/component/forms/register/submit', registration, {
          contentType: 'application/json',
          token,
        })
      ).status,
    ).toBe(403)
    expect(await server.sql('SELECT id FROM _acb_users WHERE username = $1', ['intruder'])).toEqual([])
  })
})
