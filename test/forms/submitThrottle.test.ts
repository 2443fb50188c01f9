/**
 * Issue 11: anonymous form submits are throttled per client address
 * (FORM_SUBMIT_THROTTLE, counted in PostgreSQL so that every instance
 * counts together): past the limit a client gets 429 with Retry-After and
 * nothing is processed; other clients and signed-in users are not held.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { FORM_SUBMIT_THROTTLE } from '../../plugins/cwa/dist/features/users/index.js'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let newsletter: { '@id': string }
let admin: string

const rows = async () => (await server.sql('SELECT count(*)::int AS n FROM _acb_newsletter_signups'))[0].n as number
const submit = (email: string, client: string, token?: string) =>
  server.post(
    `${newsletter['@id']}/submit`,
    { newsletter_form: { email } },
    { contentType: 'application/json', token, headers: { 'x-forwarded-for': client } },
  )

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  newsletter = (await server.post('/_api/component/forms', { formType: 'NewsletterFormType' }, { token: admin })).body
})
afterAll(async () => {
  await server?.close()
})

describe('anonymous form submit throttle', () => {
  it('security: a client flooding a form anonymously (spam flood attack) gets 429 with Retry-After past the limit, and nothing more is saved', async () => {
    const flooder = '198.51.100.77'
    const first = await submit('first@example.com', flooder)
    expect(first.status).toBe(201)
    for (let i = 1; i < FORM_SUBMIT_THROTTLE.limit; i++) await submit(`flood${i}@example.com`, flooder)
    const before = await rows()
    const refused = await submit('one-too-many@example.com', flooder)
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(FORM_SUBMIT_THROTTLE.windowSeconds)
    expect(refused.headers.get('cache-control')).toBe('private, no-store')
    expect(refused.body['@type']).toBeDefined()
    expect(await rows()).toBe(before)
    // The counter lives in PostgreSQL.
    expect(
      await server.sql("SELECT hits FROM _acb_throttle WHERE key = 'form_submit:client:198.51.100.77'"),
    ).toHaveLength(1)
  })

  it('another client is not held by the flooder (control)', async () => {
    expect((await submit('neighbour@example.com', '198.51.100.78')).status).toBe(201)
  })

  it('signed-in callers are not counted (their writes are accountable)', async () => {
    for (let i = 0; i < 3; i++)
      expect((await submit(`member${i}@example.com`, '198.51.100.77', admin)).status).toBe(201)
  })

  it('the window ends: the flooder may submit again afterwards', async () => {
    await server.sql(
      "UPDATE _acb_throttle SET expires_at = now() - interval '1 second' WHERE key = 'form_submit:client:198.51.100.77'",
    )
    expect((await submit('later@example.com', '198.51.100.77')).status).toBe(201)
  })
})
