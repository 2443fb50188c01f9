/**
 * Publishing a draft that owns what its published twin does not yet: a
 * component's nested groups, a page data property's component. The
 * published record takes them with the draft's content, so the draft's
 * removal at the end of the publication must not cascade to them (deleted
 * with the draft, the published record would point at nothing and the
 * publication failed with 422).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let admin: string
const PAST = '2020-01-02T03:04:05.000Z'
const PATH = '/_api/component/html_contents'

beforeAll(async () => {
  // What publishing costs on its own: the read model (which adds its invalidation to a write) is measured by the bench.
  server = await startTestServer({ options: { readModel: { enabled: false } } })
  admin = await server.tokenFor('ROLE_ADMIN')
}, 120_000)
afterAll(async () => server?.close())

const groupsOf = async (id: string): Promise<string[]> =>
  (
    await server.sql(
      `SELECT _acb_component_groups_id::text AS id FROM _acb_html_contents_rels WHERE parent_id = $1 AND path = 'componentGroups' ORDER BY "order"`,
      [id],
    )
  ).map((r: { id: string }) => r.id)
const exists = async (table: string, id: string) =>
  (await server.sql(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).length === 1

describe('publishing a draft that owns what its twin does not', () => {
  it('keeps a group only the draft owned: the published record now owns it', async () => {
    const kept = await createRecord(server.payload, 'component_groups', {
      reference: `kept-${Date.now()}`,
      location: 'nested',
    })
    const added = await createRecord(server.payload, 'component_groups', {
      reference: `added-${Date.now()}`,
      location: 'nested',
    })
    const live = await createRecord(server.payload, 'html_contents', {
      html: '<p>live</p>',
      publishedAt: PAST,
      componentGroups: [kept],
    })
    const edit = await server.patch(
      `${PATH}/${live}`,
      {
        html: '<p>pending</p>',
        componentGroups: [`/_api/_/component_groups/${kept}`, `/_api/_/component_groups/${added}`],
      },
      { token: admin },
    )
    expect(edit.status).toBe(200)
    const draft = String(edit.body['@id']).split('/').pop()!
    expect(draft).not.toBe(live)
    expect(await groupsOf(draft)).toEqual([kept, added])

    const published = await server.patch(`${PATH}/${draft}`, { publishedAt: PAST }, { token: admin })
    expect({ status: published.status, text: published.status === 200 ? '' : published.text }).toEqual({
      status: 200,
      text: '',
    })
    expect(published.body['@id']).toBe(`${PATH}/${live}`)
    expect(await exists('_acb_html_contents', draft)).toBe(false)
    expect(await exists('_acb_component_groups', added)).toBe(true)
    expect(await exists('_acb_component_groups', kept)).toBe(true)
    expect(await groupsOf(live)).toEqual([kept, added])
  })

  it('a group the draft dropped stays with nobody: it is an orphan for the scan, not deleted by the publication', async () => {
    const dropped = await createRecord(server.payload, 'component_groups', {
      reference: `dropped-${Date.now()}`,
      location: 'nested',
    })
    const live = await createRecord(server.payload, 'html_contents', {
      html: '<p>live</p>',
      publishedAt: PAST,
      componentGroups: [dropped],
    })
    const edit = await server.patch(
      `${PATH}/${live}`,
      { html: '<p>pending</p>', componentGroups: [] },
      { token: admin },
    )
    const draft = String(edit.body['@id']).split('/').pop()!
    const published = await server.patch(`${PATH}/${draft}`, { publishedAt: PAST }, { token: admin })
    expect(published.status).toBe(200)
    expect(await groupsOf(live)).toEqual([])
    expect(await exists('_acb_component_groups', dropped)).toBe(true)
  })

  it('keeps a component only the page data draft held: the published page data now holds it', async () => {
    const template = await createRecord(server.payload, 'pages', {
      reference: `tpl-${Date.now()}`,
      title: 'Template',
      isTemplate: true,
      layout: await createRecord(server.payload, 'layouts', { reference: `layout-${Date.now()}` }),
    })
    const oldImage = await createRecord(server.payload, 'images', { publishedAt: PAST })
    const newImage = await createRecord(server.payload, 'images', { publishedAt: PAST })
    const live = await createRecord(server.payload, 'news_article_datas', {
      title: 'News',
      page: template,
      summary: 'live',
      image: oldImage,
      publishedAt: PAST,
    })
    const edit = await server.patch(
      `/_api/page_data/news_article_datas/${live}`,
      { summary: 'pending', image: `/_api/component/images/${newImage}` },
      { token: admin },
    )
    expect(edit.status).toBe(200)
    const draft = String(edit.body['@id']).split('/').pop()!
    const published = await server.patch(
      `/_api/page_data/news_article_datas/${draft}`,
      { publishedAt: PAST },
      { token: admin },
    )
    expect({ status: published.status, text: published.status === 200 ? '' : published.text }).toEqual({
      status: 200,
      text: '',
    })
    expect(published.body.image).toBe(`/_api/component/images/${newImage}`)
    expect(await exists('_acb_images', newImage)).toBe(true)
    expect(await exists('_acb_news_article_datas', draft)).toBe(false)
  })
})

describe('what publishing a twin costs', () => {
  it('looks for references to the draft in one statement, and its removal runs no cascade', async () => {
    const live = await createRecord(server.payload, 'html_contents', { html: '<p>live</p>', publishedAt: PAST })
    const edit = await server.patch(`${PATH}/${live}`, { html: '<p>pending</p>' }, { token: admin })
    const draft = String(edit.body['@id']).split('/').pop()!
    const { result, sql } = await server.countQueries(() =>
      server.patch(`${PATH}/${draft}`, { publishedAt: PAST }, { token: admin }),
    )
    expect(result.status).toBe(200)
    const inTransaction = sql.slice(
      0,
      sql.findIndex((text) => /^commit/i.test(text.trim())),
    )
    // Positions and BlogArticleData.htmlContent can point at an HtmlContent: one probe covers both (a Payload read each
    // before, a second read of each table).
    expect(inTransaction.filter((text) => /from "_acb_blog_article_datas"/i.test(text))).toHaveLength(1)
    // No Payload read of the positions either: their admin titles are refreshed in one query just before the commit.
    expect(inTransaction.filter((text) => /select distinct "_acb_component_positions"/.test(text))).toEqual([])
    expect(inTransaction.filter((text) => /FROM "_acb_component_positions" p JOIN/.test(text))).toHaveLength(1)
    // The orphan cascade's first look (groups the deleted record owns) never runs for a handover.
    expect(inTransaction.filter((text) => text.includes(`'componentGroups'`))).toEqual([])
  })
})
