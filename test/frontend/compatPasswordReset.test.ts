/**
 * The cwa-nuxt profile's password reset: the module PATCHes
 * /component/forms/password_reset/submit with application/json, the root
 * key `password_update` and the token as `plainNewPasswordConfirmationToken`.
 * The reset email goes through a real SMTP server on loopback; the new
 * password is proved by logging in.
 */
import { describe, expect, it } from '@jest/globals'
import { linksIn } from '../support/smtp'
import { PASSWORD } from '../support/server'
import { useMailSite } from '../support/mail'

const { server, smtp } = useMailSite({
  compat: 'cwa-nuxt',
  user: { emailLinks: { defaultOrigin: 'http://front.test' } },
})

const patch = (body: unknown, contentType = 'application/json') =>
  server.request('PATCH', '/_api/component/forms/password_reset/submit', body, { contentType })
const moduleBody = (username: string, token: string, first: string, second = first) => ({
  password_update: { username, plainNewPasswordConfirmationToken: token, plainPassword: { first, second } },
})
const loginStatus = async (username: string, password: string) =>
  (await server.request('POST', '/_api/login', { username, password }, { contentType: 'application/json' })).status

async function emailedToken(username: string): Promise<string> {
  expect((await server.get(`/_api/password/reset/request/${username}`)).status).toBe(200)
  const resetLink = (l: string) => l.includes('/reset-password/')
  const mail = await smtp.waitFor((m) => m.to.includes(`${username}@example.com`) && linksIn(m).some(resetLink))
  smtp.clear()
  const [, , token] = /\/reset-password\/([^/]+)\/([^/?#]+)/.exec(new URL(linksIn(mail).find(resetLink)!).pathname)!
  return decodeURIComponent(token!)
}

describe("the module's password reset PATCH", () => {
  it('sets the password (application/json, password_update, plainNewPasswordConfirmationToken)', async () => {
    await server.createUser('nuxt_resetter')
    const token = await emailedToken('nuxt_resetter')
    const mismatch = await patch(moduleBody('nuxt_resetter', token, 'new-pass-123', 'other-pass-456'))
    expect(mismatch.status).toBe(422)
    expect(await loginStatus('nuxt_resetter', PASSWORD)).toBe(204)
    const response = await patch(moduleBody('nuxt_resetter', token, 'new-pass-123'))
    expect([200, 201]).toContain(response.status)
    expect(response.text).not.toContain('new-pass-123')
    expect(await loginStatus('nuxt_resetter', 'new-pass-123')).toBe(204)
    // Used once (attack: replaying an intercepted link).
    expect((await patch(moduleBody('nuxt_resetter', token, 'again-pass-789'))).status).toBe(404)
  })

  it('refuses a wrong token without changing anything', async () => {
    await server.createUser('nuxt_guarded')
    const response = await patch(moduleBody('nuxt_guarded', 'not-the-token', 'new-pass-123'))
    expect(response.status).toBe(404)
    expect(await loginStatus('nuxt_guarded', PASSWORD)).toBe(204)
  })

  it('does not reach the signed-in change_password form, and other bodies stay field validation', async () => {
    const validation = await patch({ password_reset: { username: 'someone' } }, 'application/merge-patch+json')
    expect(validation.status).toBe(200)
    expect(validation.body.formView.vars.submitted).toBe(true)
    expect((await patch({ a: 1 }, 'text/plain')).status).toBe(415)
  })
})
