/**
 * The Form resource's formView (contract: "Form component", formView shape;
 * reference-deployment.md: "Form types"): every var of the root and of each
 * child, Symfony-compatible block prefixes, full_name nesting of repeated
 * fields, the absolute submit URL, built-in forms by fixed id and the
 * pre-fill of password_reset from the query string.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string
let example: { '@id': string; id: string }

type View = { vars: Record<string, any>; children: View[]; rendered: boolean; methodRendered: boolean }

const child = (view: View, fullName: string): View => {
  const found = view.children.find((c) => c.vars.full_name === fullName)
  if (!found) throw new Error(`no child ${fullName} in ${view.children.map((c) => c.vars.full_name).join(', ')}`)
  return found
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  const created = await server.post('/_api/component/forms', { formType: 'ExampleFormType' }, { token: admin })
  expect(created.status).toBe(201)
  example = created.body
})

afterAll(async () => {
  await server?.close()
})

describe('formView of a stored Form', () => {
  it('POST /component/forms answers the Form with its formView', async () => {
    const created = await server.post('/_api/component/forms', { formType: 'NewsletterFormType' }, { token: admin })
    expect(created.status).toBe(201)
    expect(created.body['@type']).toBe('Form')
    expect(created.body.formView.vars.full_name).toBe('newsletter_form')
    expect(created.body.formView.children.map((c: View) => c.vars.full_name)).toEqual(['newsletter_form[email]'])
  })

  it('root vars: valid, submitted, errors, absolute action URL, attr; rendered and methodRendered false', async () => {
    const response = await server.get(example['@id'])
    expect(response.status).toBe(200)
    const view: View = response.body.formView
    expect(view.vars).toMatchObject({
      valid: true,
      submitted: false,
      errors: [],
      action: `${server.url}/_api/component/forms/${example.id}/submit`,
      attr: {},
      name: 'example_form',
      full_name: 'example_form',
      block_prefixes: ['form', '_example_form'],
    })
    expect(new URL(view.vars.action).protocol).toBe('http:')
    expect(view.rendered).toBe(false)
    expect(view.methodRendered).toBe(false)
    expect(Array.isArray(view.children)).toBe(true)
  })

  it('children: an array in declaration order, each with every var of the contract', async () => {
    const view: View = (await server.get(example['@id'])).body.formView
    expect(view.children.map((c) => c.vars.full_name)).toEqual([
      'example_form[text]',
      'example_form[plainPassword]',
      'example_form[subject]',
      'example_form[email]',
      'example_form[message]',
    ])
    for (const c of view.children) {
      for (const key of ['name', 'full_name', 'id', 'value', 'required', 'errors', 'block_prefixes'])
        expect(c.vars).toHaveProperty(key)
      expect(c.vars.id).toBe(`example_form_${c.vars.name}`)
      expect(c.vars.errors).toEqual([])
      expect(c.rendered).toBe(false)
      expect(c.methodRendered).toBe(false)
    }
    expect(child(view, 'example_form[text]').vars).toMatchObject({
      name: 'text',
      value: '',
      required: false,
      block_prefixes: ['form', 'text', '_example_form_text'],
    })
    expect(child(view, 'example_form[subject]').vars).toMatchObject({
      required: true,
      block_prefixes: ['form', 'choice', '_example_form_subject'],
    })
    expect(child(view, 'example_form[subject]').vars.choices.map((c: { value: string }) => c.value)).toEqual([
      '',
      'enquiry',
      'other',
      '-',
    ])
    expect(child(view, 'example_form[email]').vars).toMatchObject({
      required: true,
      block_prefixes: ['form', 'text', 'email', '_example_form_email'],
    })
    expect(child(view, 'example_form[message]').vars).toMatchObject({
      required: true,
      block_prefixes: ['form', 'text', 'textarea', '_example_form_message'],
    })
  })

  it('a repeated field nests its two inputs under its own full_name', async () => {
    const view: View = (await server.get(example['@id'])).body.formView
    const repeated = child(view, 'example_form[plainPassword]')
    expect(repeated.vars).toMatchObject({
      name: 'plainPassword',
      id: 'example_form_plainPassword',
      required: true,
      block_prefixes: ['form', 'repeated', '_example_form_plainPassword'],
    })
    expect(repeated.children.map((c) => [c.vars.name, c.vars.full_name, c.vars.id])).toEqual([
      ['first', 'example_form[plainPassword][first]', 'example_form_plainPassword_first'],
      ['second', 'example_form[plainPassword][second]', 'example_form_plainPassword_second'],
    ])
    for (const input of repeated.children) {
      expect(input.vars.block_prefixes).toEqual([
        'form',
        'text',
        'password',
        `_example_form_plainPassword_${input.vars.name}`,
      ])
      expect(input.vars.value).toBe('')
      expect(input.rendered).toBe(false)
      expect(input.methodRendered).toBe(false)
    }
  })

  it('collection members carry their formView too', async () => {
    const list = await server.get('/_api/component/forms')
    expect(list.status).toBe(200)
    const member = list.body.member.find((m: { id: string }) => m.id === example.id)
    expect(member.formView.vars.full_name).toBe('example_form')
    expect(member.formView.vars.action).toBe(`${server.url}/_api/component/forms/${example.id}/submit`)
  })

  it('a collection of Forms costs the same queries for 2 or 12 members (formView needs none per member)', async () => {
    const user = await server.tokenFor('ROLE_USER')
    const read = () => server.countQueries(() => server.get('/_api/component/forms?itemsPerPage=50', { token: user }))
    await server.post('/_api/component/forms', { formType: 'NewEmailAddressFormType' }, { token: admin })
    const few = await read()
    for (let i = 0; i < 10; i++)
      await server.post(
        '/_api/component/forms',
        { formType: i % 2 ? 'NewEmailAddressFormType' : 'ExampleFormType' },
        { token: admin },
      )
    const many = await read()
    expect(many.result.body.member.length).toBeGreaterThanOrEqual(few.result.body.member.length + 10)
    expect(many.queries).toBe(few.queries)
  })

  it('formType must name a registered form type (FormTypeClass): 422, nothing stored', async () => {
    const before = await server.sql('SELECT count(*)::int AS n FROM _acb_forms')
    const response = await server.post('/_api/component/forms', { formType: 'App\\Form\\PlainType' }, { token: admin })
    expect(response.status).toBe(422)
    expect(response.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['formType'])
    expect(response.body.violations[0].message).toContain('FormTypeClass')
    // The constraint's own code (issue 15), as the contract names it.
    expect(response.body.violations[0].code).toBe('FormTypeClass')
    expect(await server.sql('SELECT count(*)::int AS n FROM _acb_forms')).toEqual(before)
  })

  it('formView is computed, never written: a client value for it is ignored', async () => {
    const created = await server.post(
      '/_api/component/forms',
      { formType: 'ExampleFormType', formView: { vars: { action: 'https://evil.example' } } },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(created.body.formView.vars.action).toBe(`${server.url}/_api/component/forms/${created.body.id}/submit`)
  })
})

describe('built-in user forms by fixed id', () => {
  const builtIns: Array<[string, string, string, string[]]> = [
    ['password_reset', 'PasswordResetFormType', 'password_reset', ['username', 'token', 'plainPassword']],
    ['register', 'UserRegisterFormType', 'user_register', ['username', 'emailAddress', 'plainPassword']],
    ['change_password', 'PasswordUpdateFormType', 'password_update', ['oldPassword', 'plainPassword']],
    ['new_email_address', 'NewEmailAddressFormType', 'new_email_address', ['newEmailAddress']],
  ]

  it.each(builtIns)(
    'GET /component/forms/%s: form name and fields of reference-deployment.md',
    async (id, formType, formName, fields) => {
      const response = await server.get(`/_api/component/forms/${id}`)
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({ '@id': `/_api/component/forms/${id}`, '@type': 'Form', id, formType })
      const view: View = response.body.formView
      expect(view.vars.full_name).toBe(formName)
      expect(view.vars.action).toBe(`${server.url}/_api/component/forms/${id}/submit`)
      expect(view.children.map((c) => c.vars.name)).toEqual(fields)
      const repeated = view.children.find((c) => c.vars.name === 'plainPassword')
      if (repeated) {
        expect(repeated.children.map((c) => c.vars.full_name)).toEqual([
          `${formName}[plainPassword][first]`,
          `${formName}[plainPassword][second]`,
        ])
      }
    },
  )

  it('password_reset: ?username=abc&token=123 pre-fills username and token (token is hidden)', async () => {
    const view: View = (await server.get('/_api/component/forms/password_reset?username=abc&token=123')).body.formView
    expect(child(view, 'password_reset[username]').vars).toMatchObject({
      value: 'abc',
      block_prefixes: ['form', 'text', '_password_reset_username'],
    })
    expect(child(view, 'password_reset[token]').vars).toMatchObject({
      value: '123',
      block_prefixes: ['form', 'hidden', '_password_reset_token'],
    })
    const plain: View = (await server.get('/_api/component/forms/password_reset')).body.formView
    expect(child(plain, 'password_reset[username]').vars.value).toBe('')
  })

  it('a fixed id that names no built-in form is a 404; built-in forms are not writable as items', async () => {
    expect((await server.get('/_api/component/forms/not_a_form')).status).toBe(404)
    expect(
      (await server.patch('/_api/component/forms/password_reset', { formType: 'ExampleFormType' }, { token: admin }))
        .status,
    ).toBe(404)
    expect((await server.delete('/_api/component/forms/password_reset', { token: admin })).status).toBe(404)
  })
})

describe('API documentation', () => {
  it('describes formView as a read-only property of Form', async () => {
    const docs = await server.get('/_api/docs.json')
    expect(docs.status).toBe(200)
    const schema = docs.body.components.schemas['Form.jsonld']
    expect(schema.properties.formView.readOnly).toBe(true)
    expect(Object.keys(docs.body.components.schemas['Form.jsonld.write'].properties)).not.toContain('formView')
  })
})
