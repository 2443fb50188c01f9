/**
 * Forms alone: no types of the app's own, only `cwaPlugin({ forms: { types } })`
 * with one form type (test/support/minimalSite.ts: a config of its own, not
 * the reference site's). An admin places a Form of that type; anonymous
 * callers submit it: invalid data is a 422 with per-field violations and no
 * success event, valid data a 201 after the type's onSubmit.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineFormType, type FormSuccessEvent, length } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const received: Array<FormSuccessEvent['data']> = []

const FeedbackFormType = defineFormType({
  className: 'FeedbackFormType',
  formName: 'feedback',
  fields: [
    { name: 'email', type: 'email', required: true },
    { name: 'comment', type: 'textarea', constraints: [length({ max: 20 })] },
  ],
  onSubmit: (event) => {
    received.push(event.data)
  },
})

let site: MinimalSite
let form: string

const submit = (body: unknown) => site.post(`${form}/submit`, body, { contentType: 'application/json' })

beforeAll(async () => {
  site = await startMinimalSite({ options: { forms: { types: [FeedbackFormType] } } })
  const admin = await site.tokenFor('ROLE_ADMIN')
  const created = await site.post('/_api/component/forms', { formType: 'FeedbackFormType' }, { token: admin })
  expect(created.status).toBe(201)
  expect(created.body).toMatchObject({ '@type': 'Form', formType: 'FeedbackFormType' })
  form = created.body['@id']
})
afterAll(async () => {
  await site?.close()
})

describe('a form type in a minimal app', () => {
  it('an anonymous caller reads the Form with its formView', async () => {
    const response = await site.get(form)
    expect(response.status).toBe(200)
    expect(response.body.formView.vars).toMatchObject({ name: 'feedback', submitted: false })
    expect(response.body.formView.children.map((c: { vars: { full_name: string } }) => c.vars.full_name)).toEqual([
      'feedback[email]',
      'feedback[comment]',
    ])
  })

  it('invalid data: 422 with a violation per failing field, the success event does not run', async () => {
    const response = await submit({ feedback: { email: 'not-an-address', comment: 'x'.repeat(21) } })
    expect(response.status).toBe(422)
    expect(response.body['@id']).toBe(form)
    expect(response.body['@type']).toBe('Form')
    expect(response.body.formView.vars).toMatchObject({ submitted: true, valid: false })
    expect(response.body.violations).toEqual([
      { propertyPath: 'email', message: 'This value is not a valid email address.', code: 'invalid_email' },
      {
        propertyPath: 'comment',
        message: 'This value is too long. It should have 20 characters or less.',
        code: 'length',
      },
    ])
    expect(received).toEqual([])
  })

  it('a missing required field is a violation too', async () => {
    const response = await submit({ feedback: {} })
    expect(response.status).toBe(422)
    expect(response.body.violations).toEqual([
      { propertyPath: 'email', message: 'This value should not be blank.', code: 'not_blank' },
    ])
  })

  it('valid data: 201 with the submitted, valid Form; onSubmit received the data', async () => {
    const response = await submit({ feedback: { email: 'someone@example.com', comment: 'Nice' } })
    expect(response.status).toBe(201)
    expect(response.body['@id']).toBe(form)
    expect(response.body.formView.vars).toMatchObject({ submitted: true, valid: true, errors: [] })
    expect(response.body.violations).toBeUndefined()
    expect(received).toEqual([expect.objectContaining({ email: 'someone@example.com', comment: 'Nice' })])
  })
})
