/**
 * Form submits (contract: "Form endpoints" rules 1-5, "Form success event",
 * Authentication access rule 2, Errors 422): PATCH validates only what it
 * sends and never fires the success event; POST is a full submit (201, or
 * 422 with the Form and per-field errors); the wrong root key; no PUT;
 * anonymous submission on /submit only; passwords never sent back.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { errorsByField, type View } from './formErrors'

let server: TestServer
let admin: string
let form: { '@id': string; id: string }
let newsletter: { '@id': string; id: string }

const SECRET = 'Sup3r-secret-passw0rd'
const valid = () => ({
  example_form: {
    text: 'hello',
    plainPassword: { first: SECRET, second: SECRET },
    subject: 'enquiry',
    email: 'someone@example.com',
    message: 'A message',
  },
})

const submitPath = () => `${form['@id']}/submit`
const post = (body: unknown, path = submitPath()) => server.post(path, body, { contentType: 'application/json' })
const patch = (body: unknown, path = submitPath()) => server.patch(path, body)

const child = (view: View, name: string): View => {
  const found = view.children.find((c) => c.vars.name === name)
  if (!found) throw new Error(`no child ${name}`)
  return found
}
const newsletterRows = async () =>
  (await server.sql('SELECT email FROM _acb_newsletter_signups ORDER BY created_at')).map((r) => r.email)

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  form = (await server.post('/_api/component/forms', { formType: 'ExampleFormType' }, { token: admin })).body
  newsletter = (await server.post('/_api/component/forms', { formType: 'NewsletterFormType' }, { token: admin })).body
})

afterAll(async () => {
  await server?.close()
})

describe('POST /submit: full submit', () => {
  it('valid data: 201, the canonical Form IRI as @id, formView submitted and valid', async () => {
    const response = await post(valid())
    expect(response.status).toBe(201)
    expect(response.body['@id']).toBe(form['@id'])
    expect(response.body['@type']).toBe('Form')
    expect(response.body.formView.vars).toMatchObject({ submitted: true, valid: true, errors: [] })
    expect(child(response.body.formView, 'email').vars.value).toBe('someone@example.com')
    expect(response.body.violations).toBeUndefined()
  })

  it('accepts application/ld+json as well', async () => {
    const response = await server.post(submitPath(), valid())
    expect(response.status).toBe(201)
  })

  it('missing fields count as empty: 422 with a violation for each missing required field, none for the optional one', async () => {
    const response = await post({ example_form: {} })
    expect(response.status).toBe(422)
    expect(response.body['@id']).toBe(form['@id'])
    expect(response.body['@type']).toBe('Form')
    expect(response.body.formView.vars).toMatchObject({ submitted: true, valid: false })
    expect(errorsByField(response)).toEqual({
      plainPassword: ['This value should not be blank.'],
      subject: ['This value should not be blank.'],
      email: ['This value should not be blank.'],
      message: ['This value should not be blank.'],
    })
    expect(response.body.violations).toEqual(
      ['plainPassword', 'subject', 'email', 'message'].map((propertyPath) => ({
        propertyPath,
        message: 'This value should not be blank.',
        code: 'not_blank',
      })),
    )
  })

  it('repeated fields must match: the mismatch is reported on the repeated field', async () => {
    const body = valid()
    body.example_form.plainPassword = { first: SECRET, second: `${SECRET}x` }
    const response = await post(body)
    expect(response.status).toBe(422)
    expect(errorsByField(response)).toEqual({ plainPassword: ['The values do not match.'] })
    expect(response.body.violations).toEqual([
      { propertyPath: 'plainPassword', message: 'The values do not match.', code: 'not_equal' },
    ])
  })

  it('choice fields accept only their choices; the example subject also needs 2 characters', async () => {
    const cases: Array<[unknown, string[]]> = [
      ['nope', ['The value you selected is not a valid choice.']],
      ['', ['This value should not be blank.']],
      ['-', ['This value is too short. It should have 2 characters or more.']],
      [['enquiry'], ['This value is not valid.']],
      ['other', []],
    ]
    for (const [subject, errors] of cases) {
      const body = valid() as { example_form: Record<string, unknown> }
      body.example_form.subject = subject
      const response = await post(body)
      expect([subject, response.status, errorsByField(response).subject ?? []]).toEqual([
        subject,
        errors.length ? 422 : 201,
        errors,
      ])
    }
  })

  it('email fields need a valid address', async () => {
    for (const [email, ok] of [
      ['not-an-email', false],
      ['a@b', false],
      ['two@@example.com', false],
      ['  ok@example.com  ', true],
    ] as const) {
      const body = valid()
      body.example_form.email = email
      const response = await post(body)
      expect([email, response.status, errorsByField(response).email ?? []]).toEqual([
        email,
        ok ? 201 : 422,
        ok ? [] : ['This value is not a valid email address.'],
      ])
    }
  })

  it('a value of the wrong shape is a field error, never a 500', async () => {
    const body = valid() as { example_form: Record<string, unknown> }
    body.example_form.email = { nested: true }
    body.example_form.plainPassword = 'not-an-object'
    const response = await post(body)
    expect(response.status).toBe(422)
    expect(errorsByField(response)).toEqual({
      email: ['This value is not valid.'],
      plainPassword: ['This value is not valid.'],
    })
  })

  it('extra fields are a form error', async () => {
    const body = valid() as { example_form: Record<string, unknown> }
    body.example_form.isAdmin = true
    const response = await post(body)
    expect(response.status).toBe(422)
    expect(response.body.formView.vars.errors).toEqual(['This form should not contain extra fields.'])
  })

  it('passwords are never sent back, valid or not (security: no password echo to shared screens or caches)', async () => {
    const ok = await post(valid())
    const mismatch = await post({
      example_form: { ...valid().example_form, plainPassword: { first: SECRET, second: 'other-secret' } },
    })
    for (const response of [ok, mismatch]) {
      expect(response.text).not.toContain(SECRET)
      expect(response.text).not.toContain('other-secret')
      const repeated = child(response.body.formView, 'plainPassword')
      expect(repeated.children.map((c) => c.vars.value)).toEqual(['', ''])
    }
  })
})

describe('PATCH /submit: partial', () => {
  it('validates only the fields it sends: 200 with the updated formView', async () => {
    const response = await patch({ example_form: { email: 'partial@example.com' } })
    expect(response.status).toBe(200)
    expect(response.body['@id']).toBe(form['@id'])
    expect(response.body.formView.vars).toMatchObject({ submitted: true, valid: true })
    expect(child(response.body.formView, 'email').vars.value).toBe('partial@example.com')
    expect(errorsByField(response)).toEqual({})
  })

  it('an invalid sent field: 422 with errors on that field only', async () => {
    const response = await patch({ example_form: { email: 'nope', subject: 'enquiry' } })
    expect(response.status).toBe(422)
    expect(response.body['@id']).toBe(form['@id'])
    expect(errorsByField(response)).toEqual({ email: ['This value is not a valid email address.'] })
  })

  it('a repeated field: the first input alone is checked by itself, both are checked against each other', async () => {
    expect((await patch({ example_form: { plainPassword: { first: SECRET } } })).status).toBe(200)
    const blank = await patch({ example_form: { plainPassword: { first: '' } } })
    expect([blank.status, errorsByField(blank)]).toEqual([422, { plainPassword: ['This value should not be blank.'] }])
    const mismatch = await patch({ example_form: { plainPassword: { first: SECRET, second: 'x' } } })
    expect([mismatch.status, errorsByField(mismatch)]).toEqual([422, { plainPassword: ['The values do not match.'] }])
  })

  it('never fires the success event: a valid newsletter PATCH stores nothing, a POST stores the signup', async () => {
    const before = await newsletterRows()
    const patched = await patch({ newsletter_form: { email: 'patch@example.com' } }, `${newsletter['@id']}/submit`)
    expect(patched.status).toBe(200)
    expect(await newsletterRows()).toEqual(before)
    const posted = await post({ newsletter_form: { email: 'post@example.com' } }, `${newsletter['@id']}/submit`)
    expect(posted.status).toBe(201)
    expect(await newsletterRows()).toEqual([...before, 'post@example.com'])
  })

  it('needs the merge-patch media type', async () => {
    const response = await server.patch(
      submitPath(),
      { example_form: { email: 'a@example.com' } },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(415)
  })
})

describe('the contract rules of /submit', () => {
  it('a body whose root key is not the form name: 422 "Form object key could not be found."', async () => {
    for (const body of [
      { wrong_form: valid().example_form },
      { example_form: 'string' },
      { example_form: [] },
      [valid()],
      {},
    ]) {
      for (const response of [await post(body), await patch(body)]) {
        expect(response.status).toBe(422)
        expect(response.body.detail).toBe('Form object key could not be found.')
      }
    }
    expect((await server.post(submitPath(), undefined, { contentType: 'application/json' })).status).toBe(422)
  })

  it('no PUT (or GET, DELETE) on /submit: 405 with Allow, for admins and anonymous callers alike', async () => {
    for (const token of [admin, undefined]) {
      for (const method of ['PUT', 'GET', 'DELETE']) {
        const response = await server.request(
          method,
          submitPath(),
          method === 'PUT' ? valid() : undefined,
          token ? { token } : {},
        )
        expect([method, response.status]).toEqual([method, 405])
        expect(response.headers.get('allow')).toBe('POST, PATCH')
      }
    }
  })

  it('data is accepted only on /submit: a generic PATCH of the Form item does not submit it', async () => {
    const response = await server.patch(form['@id'], valid(), { token: admin })
    expect(response.status).toBe(200)
    expect(response.body.formView.vars.submitted).toBe(false)
  })

  it('anonymous submission is open on /submit only (security: anonymous writes elsewhere stay refused)', async () => {
    expect((await post(valid())).status).toBe(201)
    expect((await patch({ example_form: { text: 'x' } })).status).toBe(200)
    expect((await server.post('/_api/component/forms', { formType: 'ExampleFormType' })).status).toBe(401)
    expect((await server.patch(form['@id'], { formType: 'NewsletterFormType' })).status).toBe(401)
    expect((await server.delete(form['@id'])).status).toBe(401)
    // A path the API does not have is no resource to authenticate for: 404 to everyone (API Platform alike), never a write.
    const elsewhere = await server.post(`${form['@id']}/other`, valid(), { contentType: 'application/json' })
    expect(elsewhere.status).toBe(404)
  })

  it('an unknown Form is a 404 on submit', async () => {
    expect((await post(valid(), '/_api/component/forms/00000000-0000-4000-8000-000000000000/submit')).status).toBe(404)
    expect((await post(valid(), '/_api/component/forms/no_such_form/submit')).status).toBe(404)
  })
})
