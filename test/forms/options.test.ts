/**
 * Form types and success listeners registered in the plugin options
 * (`forms.types`, `forms.listeners`): custom async rules with the request
 * context, checkbox and multiple choice fields, defaults, a listener's
 * result serialized back, listener violations as field errors, one
 * transaction for the success event; and `enabledComponents.form = false`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { siteFormTypes } from '../../collections/forms'
import { custom, defineFormType, type FormSuccessEvent, length } from '../../plugins/cwa/dist/features/forms/index.js'
import { violation, ViolationError } from '../../plugins/cwa/dist/hydra/errors.js'
import { startTestServer, type TestServer } from '../support/server'

const ContactFormType = defineFormType({
  className: 'ContactFormType',
  formName: 'contact',
  attr: { novalidate: true },
  fields: [
    {
      name: 'name',
      type: 'text',
      required: true,
      label: 'Your name',
      attr: { placeholder: 'Jane' },
      constraints: [length({ max: 10 })],
    },
    { name: 'agree', type: 'checkbox', required: true },
    {
      name: 'topics',
      type: 'choice',
      multiple: true,
      choices: [
        { value: 'a', label: 'Topic A' },
        { value: 'b', label: 'Topic B' },
      ],
    },
    { name: 'source', type: 'hidden', default: 'website' },
    { name: 'age', type: 'number', min: 18, max: 130 },
    { name: 'visit', type: 'date' },
    {
      name: 'nickname',
      type: 'text',
      // A rule that needs the database: the nickname must not be a username.
      constraints: [
        custom(async (value, { ctx }) => {
          const { totalDocs } = await ctx.payload.count({
            collection: 'users',
            where: { username: { equals: value } },
            req: ctx.req,
            overrideAccess: true,
          })
          return totalDocs > 0 ? 'This nickname is taken.' : null
        }),
      ],
    },
  ],
  onSubmit: (event) => {
    event.result = {
      '@type': 'ContactReceipt',
      name: event.data.name,
      topics: event.data.topics,
      source: event.data.source,
      caller: event.ctx.user?.username ?? null,
    }
  },
})

const events: FormSuccessEvent[] = []
const recordEvents = (event: FormSuccessEvent) => {
  events.push(event)
}
/** Refuses a name with a violation, or fails outright: after the newsletter's own listener has stored its row. */
const failOnDemand = ({ data }: FormSuccessEvent) => {
  if (data.name === 'reject' || data.email === 'reject@example.com')
    throw new ViolationError([violation('name', 'This name is refused.', 'refused')])
  if (data.email === 'boom@example.com') throw new Error('listener failed')
}

let server: TestServer
let admin: string
let contact: { '@id': string; id: string }

beforeAll(async () => {
  server = await startTestServer({
    options: { forms: { types: [...siteFormTypes, ContactFormType], listeners: [recordEvents, failOnDemand] } },
  })
  admin = await server.tokenFor('ROLE_ADMIN')
  contact = (await server.post('/_api/component/forms', { formType: 'ContactFormType' }, { token: admin })).body
})

afterAll(async () => {
  await server?.close()
})

const submit = (body: unknown, iri = contact['@id']) =>
  server.post(`${iri}/submit`, body, { contentType: 'application/json' })
const childVars = (view: { children: Array<{ vars: Record<string, any> }> }, name: string) =>
  view.children.find((c) => c.vars.name === name)!.vars

describe('a form type from the plugin options', () => {
  it('renders labels, attr, defaults, checkbox and multiple choice vars', async () => {
    const view = (await server.get(contact['@id'])).body.formView
    expect(view.vars.attr).toEqual({ novalidate: true })
    expect(childVars(view, 'name')).toMatchObject({ label: 'Your name', attr: { placeholder: 'Jane' }, required: true })
    expect(childVars(view, 'agree')).toMatchObject({
      value: '1',
      checked: false,
      block_prefixes: ['form', 'checkbox', '_contact_agree'],
    })
    expect(childVars(view, 'topics')).toMatchObject({
      multiple: true,
      value: [],
      choices: [
        { value: 'a', label: 'Topic A' },
        { value: 'b', label: 'Topic B' },
      ].map((c) => expect.objectContaining(c)),
    })
    expect(childVars(view, 'source')).toMatchObject({
      value: 'website',
      block_prefixes: ['form', 'hidden', '_contact_source'],
    })
    expect(childVars(view, 'age')).toMatchObject({ value: '', block_prefixes: ['form', 'number', '_contact_age'] })
    expect(childVars(view, 'visit')).toMatchObject({ value: '', block_prefixes: ['form', 'date', '_contact_visit'] })
  })

  it('validates each field kind and runs custom async rules with the request context', async () => {
    await server.createUser('taken_nick')
    const response = await submit({
      contact: {
        name: 'far too long a name',
        agree: false,
        topics: ['a', 'zzz'],
        nickname: 'taken_nick',
        age: 12,
        visit: '2026-02-30',
      },
    })
    expect(response.status).toBe(422)
    const errors = Object.fromEntries(
      response.body.formView.children.map((c: { vars: Record<string, any> }) => [c.vars.name, c.vars.errors]),
    )
    expect(errors).toEqual({
      name: ['This value is too long. It should have 10 characters or less.'],
      agree: ['This value should not be blank.'],
      topics: ['The value you selected is not a valid choice.'],
      source: [],
      age: ['This value should be 18 or more.'],
      visit: ['This value is not valid.'],
      nickname: ['This nickname is taken.'],
    })
    const shapes = await submit({ contact: { name: 'Jane', agree: true, age: 'forty', visit: '22/11/2026' } })
    expect(shapes.status).toBe(422)
    expect([childVars(shapes.body.formView, 'age').errors, childVars(shapes.body.formView, 'visit').errors]).toEqual([
      ['This value is not valid.'],
      ['This value is not valid.'],
    ])
    expect(events).toHaveLength(0)
  })

  it("a listener's result is serialized back with 201; every listener receives the Form and the data", async () => {
    const response = await submit(
      {
        contact: {
          name: 'Jane',
          agree: true,
          topics: ['b'],
          source: 'ad',
          nickname: 'free_nick',
          age: '42',
          visit: '2026-11-22',
        },
      },
      contact['@id'],
    )
    expect(response.status).toBe(201)
    expect(response.body).toEqual({
      '@type': 'ContactReceipt',
      name: 'Jane',
      topics: ['b'],
      source: 'ad',
      caller: null,
    })
    expect(events).toHaveLength(1)
    expect(events[0]!.form).toEqual({ id: contact.id, iri: contact['@id'], formType: 'ContactFormType' })
    expect(events[0]!.data).toMatchObject({
      name: 'Jane',
      agree: true,
      topics: ['b'],
      nickname: 'free_nick',
      age: 42,
      visit: '2026-11-22',
    })
  })

  it('a listener violation is a 422 with the error on the field it names', async () => {
    const response = await submit({ contact: { name: 'reject', agree: true } })
    expect(response.status).toBe(422)
    expect(childVars(response.body.formView, 'name').errors).toEqual(['This name is refused.'])
    expect(response.body.violations).toEqual([
      { propertyPath: 'name', message: 'This name is refused.', code: 'refused' },
    ])
  })

  it('the success event is one transaction: a failing listener undoes the persisting listener (no half-written signup)', async () => {
    const newsletter = (
      await server.post('/_api/component/forms', { formType: 'NewsletterFormType' }, { token: admin })
    ).body
    const rows = async () =>
      (await server.sql('SELECT email FROM _acb_newsletter_signups ORDER BY created_at')).map((r) => r.email)
    expect((await submit({ newsletter_form: { email: 'boom@example.com' } }, newsletter['@id'])).status).toBe(500)
    const refused = await submit({ newsletter_form: { email: 'reject@example.com' } }, newsletter['@id'])
    expect(refused.status).toBe(422)
    expect(refused.body.formView.vars.errors).toEqual(['This name is refused.'])
    expect(await rows()).toEqual([])
    expect((await submit({ newsletter_form: { email: 'kept@example.com' } }, newsletter['@id'])).status).toBe(201)
    expect(await rows()).toEqual(['kept@example.com'])
  })
})

describe('enabledComponents.form = false', () => {
  let disabled: TestServer
  beforeAll(async () => {
    disabled = await startTestServer({ options: { enabledComponents: { form: false } } })
  })
  afterAll(async () => {
    await disabled?.close()
  })

  it('removes the Form resource, the built-in forms and the submit endpoints', async () => {
    const token = await disabled.tokenFor('ROLE_ADMIN')
    expect((await disabled.get('/_api/')).body.form).toBeUndefined()
    expect((await disabled.get('/_api/component/forms')).status).toBe(404)
    expect((await disabled.get('/_api/component/forms/password_reset')).status).toBe(404)
    expect((await disabled.post('/_api/component/forms', { formType: 'ExampleFormType' }, { token })).status).toBe(404)
    expect(
      (
        await disabled.post(
          '/_api/component/forms/password_reset/submit',
          { password_reset: {} },
          { contentType: 'application/json' },
        )
      ).status,
    ).toBe(404)
    expect((await disabled.get('/_api/docs.json')).body.components.schemas['Form.jsonld']).toBeUndefined()
  })
})
