/**
 * Routable security on a plugin author's types whose field names hold an
 * acronym: Payload names the column of `heroCTABlock` `hero_c_t_a_block_id`.
 * The access query that finds the components a live route reaches reads the
 * column names from the database adapter, so a component held by such a
 * field is readable through its route, and hidden without one.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineComponent, definePageData } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../../support/minimalSite'

const CallToAction = defineComponent({ shortName: 'CallToAction', fields: [{ name: 'label', type: 'text' }] })
const LandingData = definePageData({
  shortName: 'LandingData',
  fields: [
    { name: 'heroCTABlock', type: 'relationship', relationTo: 'call_to_actions' },
    { name: 'footerCTAs', type: 'relationship', relationTo: ['call_to_actions'], hasMany: true },
  ],
})

let site: MinimalSite
let admin: string
const iris: Record<string, string> = {}

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const response = await site.post(path, body, { token: admin })
  if (response.status !== 201) throw new Error(`${path}: ${response.status} ${response.text}`)
  return response.body['@id']
}

beforeAll(async () => {
  site = await startMinimalSite({
    collections: [CallToAction, LandingData],
    options: { routableSecurity: 'ROLE_SUPER_ADMIN' },
  })
  admin = await site.tokenFor('ROLE_SUPER_ADMIN') // routable security: only this role writes pages
  const layout = await created('/_api/_/layouts', { reference: 'main' })
  const template = await created('/_api/_/pages', { reference: 'landing', title: 'Landing', layout, isTemplate: true })
  iris.hero = await created('/_api/component/call_to_actions', { label: 'Hero' })
  iris.footer = await created('/_api/component/call_to_actions', { label: 'Footer' })
  iris.unrouted = await created('/_api/component/call_to_actions', { label: 'Unrouted' })
  const routed = await created('/_api/page_data/landing_datas', {
    title: 'Routed',
    page: template,
    heroCTABlock: iris.hero,
    footerCTAs: [iris.footer],
  })
  await created('/_api/page_data/landing_datas', { title: 'Not routed', page: template, heroCTABlock: iris.unrouted })
  const route = await site.post('/_api/_/routes/generate', { pageData: routed }, { token: admin })
  expect(route.status).toBe(201)
})
afterAll(async () => {
  await site?.close()
})

describe('routable security with acronyms in field names', () => {
  it('the columns are named as Payload names them (the case the query must follow)', async () => {
    const columns = await site.sql(
      "SELECT column_name FROM information_schema.columns WHERE table_name = '_acb_landing_datas' AND column_name LIKE 'hero%'",
    )
    expect(columns).toEqual([{ column_name: 'hero_c_t_a_block_id' }])
  })

  it('anonymous callers read the components a live route reaches through those fields (single and hasMany)', async () => {
    for (const iri of [iris.hero, iris.footer]) {
      const response = await site.get(iri!)
      expect({ iri, status: response.status }).toEqual({ iri, status: 200 })
    }
  })

  it('a component held only by page data without a route stays private (the attack: reading unrouted content by its id): 401 anonymous, 403 signed in', async () => {
    expect((await site.get(iris.unrouted!)).status).toBe(401)
    expect((await site.get(iris.unrouted!, { token: await site.tokenFor('ROLE_USER') })).status).toBe(403)
    expect((await site.get(iris.unrouted!, { token: admin })).status).toBe(200)
  })
})
