/**
 * Routes alone: one page data type declared in a few lines
 * (test/support/minimalSite.ts: a config of its own, not the reference
 * site's). An admin builds a layout, a template page and a page data record,
 * generates its route and reads it by path; a route whose liveAt is in the
 * future is hidden from the public (404) and shown to admins (200).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { definePageData } from 'payload-cwa'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

const RecipeData = definePageData({ shortName: 'RecipeData', fields: [{ name: 'servings', type: 'number' }] })

let site: MinimalSite
let admin: string
let template: string

async function created(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await site.post(path, body, { token: admin })
  expect(response.status).toBe(201)
  return response.body
}

beforeAll(async () => {
  site = await startMinimalSite({ collections: [RecipeData] })
  admin = await site.tokenFor('ROLE_ADMIN')
  const layout = (await created('/_api/_/layouts', { reference: 'main' }))['@id']
  template = (await created('/_api/_/pages', { reference: 'recipe', title: 'Recipe', layout, isTemplate: true }))['@id']
})
afterAll(async () => {
  await site?.close()
})

describe('routes in a minimal app', () => {
  it('an admin generates the route of a page data record; anyone reads it by path', async () => {
    const recipe = await created('/_api/page_data/recipe_datas', { title: 'Apple Pie', page: template, servings: 8 })
    expect(recipe['@type']).toBe('RecipeData')

    const generated = await site.post('/_api/_/routes/generate', { pageData: recipe['@id'] }, { token: admin })
    expect(generated.status).toBe(201)
    expect(generated.body).toMatchObject({
      '@type': 'Route',
      path: '/apple-pie',
      pageData: recipe['@id'],
      page: null,
      redirect: null,
    })
    expect((await site.get(recipe['@id'])).body.route).toBe(generated.body['@id'])

    const byPath = await site.get('/_api/_/routes//apple-pie')
    expect(byPath.status).toBe(200)
    expect(byPath.body).toMatchObject({
      '@id': generated.body['@id'],
      '@type': 'Route',
      path: '/apple-pie',
      pageData: recipe['@id'],
    })
    expect((await site.get('/_api/_/routes//no-such-path')).status).toBe(404)
  })

  it('generating is for admins: anonymous 401, nothing stored', async () => {
    const recipe = await created('/_api/page_data/recipe_datas', { title: 'Plum Cake', page: template })
    const response = await site.post('/_api/_/routes/generate', { pageData: recipe['@id'] })
    expect(response.status).toBe(401)
    expect(await site.sql('SELECT path FROM _acb_routes WHERE path = $1', ['/plum-cake'])).toEqual([])
  })

  it('a route with liveAt in the future: 404 by path for the public, 200 for an admin', async () => {
    const recipe = await created('/_api/page_data/recipe_datas', { title: 'Soon', page: template })
    const liveAt = new Date(Date.now() + 24 * 3600_000).toISOString()
    const route = await created('/_api/_/routes', { path: '/soon', pageData: recipe['@id'], liveAt })
    expect(route.liveAt).toBe(liveAt)
    expect(route._metadata.effectiveLiveAt).toBe(liveAt)

    expect((await site.get('/_api/_/routes//soon')).status).toBe(404)
    expect((await site.get(route['@id'])).status).toBe(404)
    const asAdmin = await site.get('/_api/_/routes//soon', { token: admin })
    expect(asAdmin.status).toBe(200)
    expect(asAdmin.body).toMatchObject({ '@id': route['@id'], path: '/soon', liveAt })
  })

  it('the plugin installs the route-target unique indexes at start (no migration declares them): plain SQL cannot give a record a second route', async () => {
    const indexes = await site.sql(
      `SELECT indexname, indexdef FROM pg_indexes WHERE indexname IN ('_acb_routes_page_unique', '_acb_routes_rels_acb_recipe_datas_unique') ORDER BY indexname`,
    )
    expect(indexes.map((row) => row.indexname)).toEqual([
      '_acb_routes_page_unique',
      '_acb_routes_rels_acb_recipe_datas_unique',
    ])
    expect(indexes[1].indexdef).toContain(
      "WHERE (((path)::text = 'pageData'::text) AND (_acb_recipe_datas_id IS NOT NULL))",
    )
    const [page] = await site.sql(`SELECT id FROM _acb_pages LIMIT 1`)
    await site.sql(`INSERT INTO _acb_routes (path, page_id) VALUES ('/first-route', $1)`, [page.id])
    await expect(
      site.sql(`INSERT INTO _acb_routes (path, page_id) VALUES ('/second-route', $1)`, [page.id]),
    ).rejects.toMatchObject({
      code: '23505',
      constraint: '_acb_routes_page_unique',
    })
  })
})
