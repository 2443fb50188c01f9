import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { ContactFormType } from '../../examples/contactForm'
import { startTestServer, type TestServer } from '../support/server'

/**
 * The form type example of docs/plugin-authors.md ("Form types") is this test's
 * subject: the page holds examples/contactForm.ts verbatim, and the type
 * renders and validates as the page says once registered.
 */

let server: TestServer
let form: string

beforeAll(async () => {
  server = await startTestServer({ options: { forms: { types: [ContactFormType] } } })
  const admin = await server.tokenFor('ROLE_ADMIN')
  const created = await server.post('/_api/component/forms', { formType: 'ContactFormType' }, { token: admin })
  expect(created.status).toBe(201)
  form = created.body['@id']
})
afterAll(async () => {
  await server?.close()
})

describe('plugin-author form type example', () => {
  it('is in docs/plugin-authors.md verbatim', () => {
    const readme = readFileSync(new URL('../../docs/plugin-authors.md', import.meta.url), 'utf8')
    expect(readme).toContain(readFileSync(new URL('../../examples/contactForm.ts', import.meta.url), 'utf8').trim())
  })

  it('renders its fields in formView', () => {
    return server.get(form).then((response) => {
      expect(response.body.formView.children.map((c: { vars: { full_name: string } }) => c.vars.full_name)).toEqual([
        'contact[name]',
        'contact[email]',
        'contact[topic]',
        'contact[agree]',
        'contact[source]',
        'contact[nickname]',
      ])
    })
  })

  it('validates a full submit field by field (422), the custom rule included', async () => {
    const response = await server.post(
      `${form}/submit`,
      { contact: { name: 'x'.repeat(51), email: 'nope', nickname: 'admin' } },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(422)
    const errors = Object.fromEntries(
      response.body.formView.children.map((c: { vars: { name: string; errors: string[] } }) => [
        c.vars.name,
        c.vars.errors.length > 0,
      ]),
    )
    expect(errors).toMatchObject({ name: true, email: true, agree: true, nickname: true })
  })

  it("answers a valid submit with the listener's result (201)", async () => {
    const response = await server.post(
      `${form}/submit`,
      { contact: { name: 'Ada', email: 'ada@example.com', topic: 'help', agree: true } },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(201)
    expect(response.body).toEqual({ '@type': 'ContactReceived', name: 'Ada', topic: 'help' })
  })
})
