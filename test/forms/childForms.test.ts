/**
 * Nested child forms (issue 15, "forms, what remains"): a form type's
 * field may be another form type, rendered as a compound child in
 * formView (`order[address][street]`), read from the nested body, and
 * validated field by field at any depth. A minimal site of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineFormType, type FormSuccessEvent, length } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const received: Array<FormSuccessEvent['data']> = []

const GeoType = defineFormType({
  className: 'GeoType',
  formName: 'geo',
  fields: [{ name: 'lat', type: 'number', min: -90, max: 90 }],
})
const AddressType = defineFormType({
  className: 'AddressType',
  formName: 'address',
  fields: [
    { name: 'street', type: 'text', required: true },
    { name: 'city', type: 'text', default: 'Paris', constraints: [length({ max: 10 })] },
    { name: 'geo', type: 'form', form: GeoType },
  ],
})
const OrderFormType = defineFormType({
  className: 'OrderFormType',
  formName: 'order',
  fields: [
    { name: 'name', type: 'text', required: true },
    { name: 'address', type: 'form', form: AddressType },
  ],
  onSubmit: (event) => {
    received.push(event.data)
  },
})

let site: MinimalSite
let form: string
const submit = (body: unknown) => site.post(`${form}/submit`, body, { contentType: 'application/json' })
const byFullName = (view: { vars: { full_name: string }; children: unknown[] }): Record<string, any> => {
  const out: Record<string, any> = {}
  const walk = (node: any) => {
    out[node.vars.full_name] = node
    for (const child of node.children) walk(child)
  }
  walk(view)
  return out
}

beforeAll(async () => {
  site = await startMinimalSite({ options: { forms: { types: [OrderFormType] } } })
  const admin = await site.tokenFor('ROLE_ADMIN')
  const created = await site.post('/_api/component/forms', { formType: 'OrderFormType' }, { token: admin })
  expect(created.status).toBe(201)
  form = created.body['@id']
})
afterAll(async () => {
  await site?.close()
})

describe('a child form', () => {
  it('renders as a compound child whose fields nest their full names and ids, defaults included', async () => {
    const view = (await site.get(form)).body.formView
    const nodes = byFullName(view)
    expect(Object.keys(nodes)).toEqual([
      'order',
      'order[name]',
      'order[address]',
      'order[address][street]',
      'order[address][city]',
      'order[address][geo]',
      'order[address][geo][lat]',
    ])
    expect(nodes['order[address]'].vars).toMatchObject({
      name: 'address',
      id: 'order_address',
      compound: true,
      value: { street: '', city: 'Paris', geo: { lat: '' } },
    })
    expect(nodes['order[address]'].vars.block_prefixes).toEqual(['form', '_order_address'])
    expect(nodes['order[address][street]'].vars).toMatchObject({
      id: 'order_address_street',
      required: true,
      block_prefixes: ['form', 'text', '_order_address_street'],
    })
    expect(nodes['order[address][geo][lat]'].vars.id).toBe('order_address_geo_lat')
  })

  it('validates nested fields at any depth: errors on the nested fields, violations with nested paths', async () => {
    const response = await submit({
      order: { name: 'Ann', address: { street: '', city: 'Far too long a city', geo: { lat: 120 } } },
    })
    expect(response.status).toBe(422)
    const nodes = byFullName(response.body.formView)
    expect(nodes['order[address][street]'].vars.errors.length).toBe(1)
    expect(nodes['order[address][city]'].vars.errors.length).toBe(1)
    expect(nodes['order[address][geo][lat]'].vars.errors.length).toBe(1)
    expect(nodes['order[name]'].vars.errors).toEqual([])
    expect(nodes['order[address]'].vars.valid).toBe(false)
    expect(response.body.formView.vars.valid).toBe(false)
    expect(received).toEqual([])
  })

  it('refuses a child form sent as a scalar, and extra fields inside it', async () => {
    const scalar = await submit({ order: { name: 'Ann', address: 'Main street' } })
    expect(scalar.status).toBe(422)
    expect(byFullName(scalar.body.formView)['order[address]'].vars.errors).toEqual(['This value is not valid.'])
    const extra = await submit({ order: { name: 'Ann', address: { street: 'Main', nope: 1 } } })
    expect(extra.status).toBe(422)
    expect(byFullName(extra.body.formView)['order[address]'].vars.errors).toEqual([
      'This form should not contain extra fields.',
    ])
  })

  it('PATCH validates only what is sent inside the child', async () => {
    const response = await site.request(
      'PATCH',
      `${form}/submit`,
      { order: { address: { city: 'Lyon' } } },
      { contentType: 'application/merge-patch+json' },
    )
    expect(response.status).toBe(200)
    const nodes = byFullName(response.body.formView)
    expect(nodes['order[address][city]'].vars).toMatchObject({ value: 'Lyon', errors: [] })
    expect(nodes['order[address][street]'].vars.errors).toEqual([])
  })

  it('a valid submit hands the nested data to the listener (201)', async () => {
    const response = await submit({
      order: { name: 'Ann', address: { street: 'Main street', city: 'Lyon', geo: { lat: '45.7' } } },
    })
    expect(response.status).toBe(201)
    expect(received).toEqual([{ name: 'Ann', address: { street: 'Main street', city: 'Lyon', geo: { lat: 45.7 } } }])
  })
})

describe('declaring one', () => {
  it('refuses a child form that contains itself', () => {
    const loop = { className: 'LoopType', formName: 'loop', fields: [] as never[] } as Parameters<
      typeof defineFormType
    >[0]
    ;(loop.fields as unknown[]).push({ name: 'again', type: 'form', form: loop })
    expect(() => defineFormType(loop)).toThrow(/contains itself/)
  })
})
