import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'

/**
 * Contract rows a real front end leans on (issue 15, "for every
 * deployment"): PATCH answers what a GET answers, allowedComponents keeps
 * null and serves canonical IRIs, a component POST places the component,
 * `_metadata` on every resource, site configuration parameters, the page
 * data metadata, and a human `message` on errors. Real HTTP, real database.
 */

let server: TestServer
let admin: string
const P = '/_api'

const idOf = (iri: string) => iri.split('/').pop()!

beforeAll(async () => {
  server = await startTestServer()
  await seedDemo(server.payload, { apiPrefix: P })
  admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

describe('a PATCH answers the body a GET would', () => {
  it('of a component group: its componentPositions are listed, not []', async () => {
    const group = (await server.get(`${P}/_/component_groups?search=home_main`, { token: admin })).body.member[0]
    // As many as the demo seed placed in the home page's main group (its title, text and image).
    const [{ count }] = await server.sql(
      'SELECT count(*)::int AS count FROM _acb_component_positions WHERE component_group_id = $1',
      [group.id],
    )
    expect(count).toBeGreaterThan(1)
    expect(group.componentPositions.length).toBe(count)
    const patched = await server.patch(group['@id'], { location: 'main' }, { token: admin })
    expect(patched.status).toBe(200)
    const read = await server.get(group['@id'], { token: admin })
    expect(patched.body.componentPositions).toEqual(read.body.componentPositions)
    expect(patched.body).toEqual(read.body)
  })

  it('of a component: its componentPositions are listed', async () => {
    const titles = (await server.get(`${P}/component/titles`, { token: admin })).body.member[0]
    expect(titles.componentPositions.length).toBe(1)
    const patched = await server.patch(titles['@id'], { title: 'Welcome!' }, { token: admin })
    expect(patched.status).toBe(200)
    expect(patched.body.componentPositions).toEqual(titles.componentPositions)
    const read = await server.get(titles['@id'], { token: admin })
    expect(patched.body).toEqual(read.body)
  })
})

describe('allowedComponents', () => {
  const create = (body: Record<string, unknown>) =>
    server.post(`${P}/_/component_groups`, { location: 'main', ...body }, { token: admin })

  it('keeps null as null, and an empty list as an empty list', async () => {
    const none = await create({ reference: 'ac-none' })
    expect(none.status).toBe(201)
    expect(none.body.allowedComponents).toBeNull()
    const explicitNull = await create({ reference: 'ac-null', allowedComponents: null })
    expect((await server.get(explicitNull.body['@id'])).body.allowedComponents).toBeNull()
    const empty = await create({ reference: 'ac-empty', allowedComponents: [] })
    expect((await server.get(empty.body['@id'])).body.allowedComponents).toEqual([])
  })

  it('stores every IRI form in one canonical form and serves it like every @id', async () => {
    const created = await create({
      reference: 'ac-forms',
      allowedComponents: ['/component/titles', `${P}/component/html_contents`, `${server.url}${P}/component/images/`],
    })
    expect(created.status).toBe(201)
    const expected = [`${P}/component/titles`, `${P}/component/html_contents`, `${P}/component/images`]
    expect(created.body.allowedComponents).toEqual(expected)
    expect((await server.get(created.body['@id'])).body.allowedComponents).toEqual(expected)
    const [row] = await server.sql('SELECT allowed_components FROM _acb_component_groups WHERE id = $1', [
      idOf(created.body['@id']),
    ])
    expect(row.allowed_components).toEqual(['/component/titles', '/component/html_contents', '/component/images'])
  })

  it('clears back to null on PATCH null, and still restricts positions', async () => {
    const created = await create({ reference: 'ac-restrict', allowedComponents: ['/component/titles'] })
    const html = (await server.post(`${P}/component/html_contents`, { html: '<p>x</p>' }, { token: admin })).body['@id']
    const refused = await server.post(
      `${P}/_/component_positions`,
      { componentGroup: created.body['@id'], component: html },
      { token: admin },
    )
    expect(refused.status).toBe(422)
    const cleared = await server.patch(created.body['@id'], { allowedComponents: null }, { token: admin })
    expect(cleared.body.allowedComponents).toBeNull()
    const accepted = await server.post(
      `${P}/_/component_positions`,
      { componentGroup: created.body['@id'], component: html },
      { token: admin },
    )
    expect(accepted.status).toBe(201)
  })
})

describe('a component POST with componentPositions', () => {
  let group: string
  beforeAll(async () => {
    group = (
      await server.post(`${P}/_/component_groups`, { reference: 'post-positions', location: 'main' }, { token: admin })
    ).body['@id']
  })

  it('creates embedded {componentGroup, sortValue} positions holding the new component', async () => {
    const response = await server.post(
      `${P}/component/titles`,
      { title: 'Placed', componentPositions: [{ componentGroup: group, sortValue: 5 }] },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body.componentPositions).toHaveLength(1)
    const position = (await server.get(response.body.componentPositions[0], { token: admin })).body
    expect(position).toMatchObject({ componentGroup: group, component: response.body['@id'], sortValue: 5 })
    expect((await server.get(group, { token: admin })).body.componentPositions).toContain(position['@id'])
  })

  it('links an existing position given by IRI', async () => {
    const empty = await server.post(
      `${P}/_/component_positions`,
      { componentGroup: group, sortValue: 9 },
      { token: admin },
    )
    expect(empty.status).toBe(201)
    const response = await server.post(
      `${P}/component/titles`,
      { title: 'Into the slot', componentPositions: [empty.body['@id']] },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body.componentPositions).toEqual([empty.body['@id']])
    expect((await server.get(empty.body['@id'], { token: admin })).body.component).toBe(response.body['@id'])
  })

  it('writes nothing when a position is refused (422 on the entry, no orphaned component)', async () => {
    const count = async () => Number((await server.sql('SELECT count(*) AS n FROM _acb_titles'))[0].n)
    const before = await count()
    const restricted = (
      await server.post(
        `${P}/_/component_groups`,
        { reference: 'only-html', location: 'main', allowedComponents: ['/component/html_contents'] },
        { token: admin },
      )
    ).body['@id']
    const refused = await server.post(
      `${P}/component/titles`,
      { title: 'Nowhere', componentPositions: [{ componentGroup: group }, { componentGroup: restricted }] },
      { token: admin },
    )
    expect(refused.status).toBe(422)
    expect(refused.body.violations[0].propertyPath).toMatch(/^componentPositions\[1\]/)
    const missing = await server.post(
      `${P}/component/titles`,
      {
        title: 'Nowhere',
        componentPositions: [{ componentGroup: `${P}/_/component_groups/00000000-0000-4000-8000-000000000000` }],
      },
      { token: admin },
    )
    expect(missing.status).toBe(422)
    expect(missing.body.violations[0].propertyPath).toBe('componentPositions[0].componentGroup')
    const wrongType = await server.post(
      `${P}/component/titles`,
      { title: 'Nowhere', componentPositions: 'x' },
      { token: admin },
    )
    expect(wrongType.status).toBe(422)
    expect(await count()).toBe(before)
  })
})

describe('_metadata on every resource', () => {
  it('says persisted: true on routes, pages, layouts, groups, positions, page data, components and users', async () => {
    const paths = [
      `${P}/_/routes//blog`,
      `${P}/_/pages`,
      `${P}/_/layouts`,
      `${P}/_/component_groups`,
      `${P}/_/component_positions`,
      `${P}/page_data/blog_article_datas`,
      `${P}/component/titles`,
    ]
    for (const path of paths) {
      const body = (await server.get(path, { token: admin })).body
      const item = body.member ? body.member[0] : body
      expect({ path, metadata: item._metadata }).toMatchObject({ path, metadata: { persisted: true } })
    }
    const me = await server.get(`${P}/me`, { token: admin })
    expect(me.body._metadata).toMatchObject({ persisted: true })
    // An admin's route keeps its own entries beside it.
    expect((await server.get(`${P}/_/routes//blog`, { token: admin })).body._metadata).toHaveProperty('effectiveLiveAt')
  })
})

describe('site configuration parameters', () => {
  const base = `${P}/_/site_config_parameters`

  it('lists {key, value} to anonymous callers; only admins write', async () => {
    expect((await server.post(base, { key: 'siteName', value: 'Demo' })).status).toBe(401)
    const user = await server.tokenFor('ROLE_USER')
    expect((await server.post(base, { key: 'siteName', value: 'Demo' }, { token: user })).status).toBe(403)
    const created = await server.post(base, { key: 'siteName', value: 'Demo' }, { token: admin })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ '@type': 'SiteConfigParameter', key: 'siteName', value: 'Demo' })
    await server.post(base, { key: 'robotsAllowAiBots', value: 'false' }, { token: admin })
    const list = await server.get(base)
    expect(list.status).toBe(200)
    expect(list.body.member.map((m: { key: string; value: string }) => [m.key, m.value])).toEqual([
      ['robotsAllowAiBots', 'false'],
      ['siteName', 'Demo'],
    ])
    const entrypoint = (await server.get(`${P}/`)).body
    expect(Object.values(entrypoint)).toContain(base)
  })

  it('PATCHes and GETs by key (booleans as strings, as the front end sends them)', async () => {
    const patched = await server.patch(`${base}/robotsAllowAiBots`, { value: 'true' }, { token: admin })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ key: 'robotsAllowAiBots', value: 'true' })
    expect((await server.get(`${base}/robotsAllowAiBots`)).body.value).toBe('true')
    expect((await server.patch(`${base}/robotsAllowAiBots`, { value: 'x' })).status).toBe(401)
    expect((await server.get(`${base}/noSuchKey`)).status).toBe(404)
    expect((await server.patch(`${base}/noSuchKey`, { value: '1' }, { token: admin })).status).toBe(404)
  })

  it('refuses a duplicate key, a bad key or a non-string value with 422', async () => {
    expect((await server.post(base, { key: 'siteName', value: 'Again' }, { token: admin })).status).toBe(422)
    expect((await server.post(base, { key: 'has space', value: 'x' }, { token: admin })).status).toBe(422)
    expect((await server.post(base, { key: 'flag', value: true }, { token: admin })).status).toBe(422)
  })

  it('deletes by key', async () => {
    await server.post(base, { key: 'temporary', value: 'x' }, { token: admin })
    expect((await server.request('DELETE', `${base}/temporary`, undefined, { token: admin })).status).toBe(204)
    expect((await server.get(`${base}/temporary`)).status).toBe(404)
  })
})

describe('GET /_/page_data_metadatas', () => {
  it('lists each page data type with its component-typed properties', async () => {
    const response = await server.get(`${P}/_/page_data_metadatas`)
    expect(response.status).toBe(200)
    const byClass = Object.fromEntries(
      response.body.member.map((m: { resourceClass: string; properties: unknown[] }) => [m.resourceClass, m]),
    )
    expect(
      byClass.BlogArticleData.properties.map((p: { property: string; componentShortName: string }) => [
        p.property,
        p.componentShortName,
      ]),
    ).toEqual([
      ['htmlContent', 'HtmlContent'],
      ['image', 'Image'],
    ])
    expect(byClass.NewsArticleData.properties.map((p: { property: string }) => p.property)).toEqual(['image'])
    expect(byClass.BlogArticleData).toMatchObject({
      '@type': 'PageDataMetadata',
      resourceIri: `${P}/page_data/blog_article_datas`,
    })
    expect(response.body.totalItems).toBe(2)
  })
})

describe('errors carry a human message', () => {
  it('401 on bad credentials: message "Invalid credentials."', async () => {
    const response = await server.post(
      `${P}/login`,
      { username: 'nobody', password: 'wrong' },
      { contentType: 'application/json' },
    )
    expect(response.status).toBe(401)
    expect(response.body.message).toBe('Invalid credentials.')
  })

  it('422 violations and 404s carry one too', async () => {
    const violation = await server.post(`${P}/component/titles`, {}, { token: admin })
    expect(violation.status).toBe(422)
    expect(typeof violation.body.message).toBe('string')
    expect(violation.body.message).toContain('title')
    const missing = await server.get(`${P}/component/titles/00000000-0000-4000-8000-000000000000`)
    expect(missing.body).toMatchObject({ status: 404, message: 'Not Found' })
  })
})
