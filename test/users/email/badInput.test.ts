import { beforeAll, describe, expect, it } from '@jest/globals'
import { useMailSite } from '../../support/mail'

/**
 * Odd path segments on the email flow endpoints: a clear 4xx, never a 500,
 * and nothing sent or stored.
 */

const { server, smtp } = useMailSite({ user: { emailLinks: { defaultOrigin: 'https://front.example' } } })
beforeAll(async () => {
  await server.createUser('jane', ['ROLE_USER'])
})

const long = 'x'.repeat(4000)

describe('email flow endpoints with odd input', () => {
  it.each([
    ['/_api/password/reset/request/%ZZ', 400],
    ['/_api/password/reset/request/%E0%A4%A', 400],
    [`/_api/password/reset/request/${long}`, 404],
    ['/_api/verify-email/jane/%ZZ', 400],
    [`/_api/verify-email/jane/${long}`, 404],
    ['/_api/verify-email/jane/not-a-token', 404],
    ['/_api/resend-verify-email/%00', 400],
    [`/_api/confirm-email/jane/${encodeURIComponent('a/b@example.com')}/token`, 404],
    ['/_api/confirm-email/jane/not-an-address/token', 404],
    ['/_api/resend-verify-new-email/nobody-here', 404],
  ])('case %# answers %p (no 500)', async (path, status) => {
    const response = await server.get(path)
    expect(response.status).toBe(status)
    expect(response.body['@type']).toBe('Error')
  })

  it('sent nothing and stored no token', async () => {
    expect(smtp.messages).toHaveLength(0)
    const rows = await server.sql(`SELECT count(*) AS n FROM _acb_user_tokens`)
    expect(Number(rows[0].n)).toBe(0)
  })
})
