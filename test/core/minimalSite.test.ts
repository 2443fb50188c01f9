/**
 * The core alone: `cwaPlugin()` with no types of the app's own, on an empty
 * database whose schema comes from that config (test/support/minimalSite.ts),
 * served through `createApp` from the front door. The entrypoint lists the
 * core resources, the users and the plugin's built-in components (and no
 * type of the reference site), the OpenAPI document answers, and an admin
 * creates a layout and a page.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

let site: MinimalSite
let admin: string

beforeAll(async () => {
  site = await startMinimalSite()
  admin = await site.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await site?.close()
})

describe('cwaPlugin() alone', () => {
  it('the entrypoint lists the core resources and users, and none of the reference site types', async () => {
    const response = await site.get('/_api/')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/ld+json')
    expect(response.body).toMatchObject({
      '@id': '/_api',
      '@type': 'Entrypoint',
      user: '/_api/users',
      layout: '/_api/_/layouts',
      page: '/_api/_/pages',
      route: '/_api/_/routes',
      componentGroup: '/_api/_/component_groups',
      componentPosition: '/_api/_/component_positions',
      form: '/_api/component/forms',
      collection: '/_api/component/collections',
    })
    // The site's demo types are not part of this app.
    expect(response.body).not.toHaveProperty('htmlContent')
    expect(response.body).not.toHaveProperty('blogArticleData')
    expect(response.headers.get('link')).toBe(
      `<${site.url}/_api/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
    )
  })

  it('/_api/docs.json answers an OpenAPI document of the core paths only', async () => {
    const response = await site.get('/_api/docs.json', { headers: { accept: 'application/json' } })
    expect(response.status).toBe(200)
    expect(response.body.openapi).toMatch(/^3\./)
    const paths = Object.keys(response.body.paths)
    expect(paths).toEqual(expect.arrayContaining(['/_api/_/layouts', '/_api/_/pages', '/_api/_/routes', '/_api/login']))
    expect(paths.some((p) => p.includes('html_contents') || p.includes('blog_article_datas'))).toBe(false)
  })

  it('an admin creates a layout and a page; the page reads back anonymously; an anonymous write is 401', async () => {
    const layout = await site.post('/_api/_/layouts', { reference: 'main' }, { token: admin })
    expect(layout.status).toBe(201)
    expect(layout.body).toMatchObject({ '@type': 'Layout', reference: 'main' })
    const page = await site.post(
      '/_api/_/pages',
      { reference: 'home', title: 'Home', layout: layout.body['@id'] },
      { token: admin },
    )
    expect(page.status).toBe(201)
    expect(page.body).toMatchObject({ '@type': 'Page', reference: 'home', title: 'Home', layout: layout.body['@id'] })
    const read = await site.get(page.body['@id'])
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ '@id': page.body['@id'], title: 'Home' })
    expect((await site.post('/_api/_/layouts', { reference: 'anonymous' })).status).toBe(401)
    expect(await site.sql('SELECT reference FROM _acb_layouts ORDER BY reference')).toEqual([{ reference: 'main' }])
  })

  it("keeps its own tables out of Payload's development push: a second `next dev` start asks nothing", async () => {
    // The push a restarted `next dev` computes (Payload's pushDevSchema, with the adapter's tablesFilter), once the
    // plugin's own SQL tables exist. Without the filter drizzle-kit plans to drop them and, as they hold rows, asks
    // "Accept warnings and push schema to database?" on the terminal while every request waits.
    const own = await site.sql(
      "SELECT tablename FROM pg_tables WHERE tablename IN ('_acb_row_counts', '_acb_read_model', '_acb_read_model_fence', '_acb_read_model_moments') ORDER BY tablename",
    )
    expect(own.map((t) => t.tablename)).toEqual([
      '_acb_read_model',
      '_acb_read_model_fence',
      '_acb_read_model_moments',
      '_acb_row_counts',
    ])
    const db = site.payload.db as unknown as {
      requireDrizzleKit(): {
        pushSchema(...args: unknown[]): Promise<{ warnings: string[]; statementsToExecute: string[] }>
      }
      schema: unknown
      drizzle: unknown
      tablesFilter?: string[]
    }
    const { warnings, statementsToExecute } = await db
      .requireDrizzleKit()
      .pushSchema(db.schema, db.drizzle, undefined, db.tablesFilter, undefined)
    expect(warnings).toEqual([])
    // What remains is drizzle-kit's own noise on any Payload app (defaults and long constraint names it rewrites)
    // and the routes' unique index, which the plugin makes again as it starts (docs/adopting.md): no table goes.
    expect(statementsToExecute.filter((statement) => /DROP TABLE|_acb_row_counts|_read_model/.test(statement))).toEqual(
      [],
    )
  })
})
