import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'

/**
 * SQL cost of reads (issue 2, "Speed and robustness"): an item read is at
 * most 3 queries, a collection read at most 4 whatever its size. Counted
 * from the pg client around one real HTTP request; no timing.
 */

let server: TestServer
let admin: string

const ITEM_MAX = 3
const COLLECTION_MAX = 4

async function make(collection: string, data: Record<string, unknown>): Promise<string> {
  const doc = await server.payload.create({ collection: collection as never, data: data as never, depth: 0 })
  return String(doc.id)
}

/**
 * HtmlContent and NavigationLink are publishable: a Local API create without
 * publishedAt is a draft, invisible to anonymous callers. The fixtures here
 * are published, as the live content whose read cost is measured.
 */
const published = () => ({ publishedAt: new Date(Date.now() - 60_000).toISOString() })

/** Runs one GET, checks it is a 200, and returns the number of SQL queries it sent (with the SQL for messages). */
async function cost(path: string, options: { token?: string; headers?: Record<string, string> } = {}) {
  const { result, queries, sql } = await server.countQueries(() => server.get(path, options))
  expect({ path, status: result.status }).toEqual({ path, status: 200 })
  return { queries, sql, body: result.body }
}

function expectAtMost(measured: { queries: number; sql: string[] }, max: number, label: string) {
  // On failure the message lists the statements, shortened.
  expect({
    label,
    queries: measured.queries,
    sql: measured.queries > max ? measured.sql.map((s) => s.slice(0, 160)) : [],
  }).toEqual({
    label,
    queries: expect.any(Number),
    sql: [],
  })
  expect(measured.queries).toBeLessThanOrEqual(max)
}

const f: Record<string, string> = {}

/** Adds `n` of each kind of record a collection test reads. */
async function grow(n: number, tag: string) {
  for (let i = 0; i < n; i++) {
    const page = await make('pages', {
      reference: `${tag}-page-${i}`,
      title: `Page ${i}`,
      layout: f.layout,
      componentGroups: [f.group],
      parentPage: f.page,
    })
    const html = await make('html_contents', { html: `<p>${i}</p>`, componentGroups: [f.group], ...published() })
    await make('component_positions', {
      componentGroup: f.group,
      component: { relationTo: 'html_contents', value: html },
      sortValue: i,
    })
    await make('routes', { path: `/${tag}/${i}`, page })
    const blog = await make('blog_article_datas', {
      title: `${tag} ${i}`,
      page: f.template,
      htmlContent: html,
      parentPageData: { relationTo: 'blog_article_datas', value: f.blog },
    })
    await make('routes', { path: `/${tag}/blog/${i}`, pageData: { relationTo: 'blog_article_datas', value: blog } })
  }
}

beforeAll(async () => {
  // Queries of Payload's path: with the read model a repeated read is one statement, measured by the bench.
  server = await startTestServer({ options: { readModel: { enabled: false } } })
  admin = await server.tokenFor('ROLE_ADMIN')
  f.group = await make('component_groups', { reference: 'main', location: 'main' })
  f.layout = await make('layouts', { reference: 'layout', componentGroups: [f.group] })
  f.page = await make('pages', {
    reference: 'home',
    title: 'Home',
    layout: f.layout,
    componentGroups: [f.group],
    uiClassNames: ['a', 'b'],
  })
  f.template = await make('pages', { reference: 'template', title: 'Template', layout: f.layout, isTemplate: true })
  f.html = await make('html_contents', { html: '<p>x</p>', componentGroups: [f.group], ...published() })
  f.position = await make('component_positions', {
    componentGroup: f.group,
    component: { relationTo: 'html_contents', value: f.html },
  })
  f.route = await make('routes', { path: '/home', page: f.page })
  f.redirect = await make('routes', { path: '/old-home', redirect: f.route })
  f.blog = await make('blog_article_datas', { title: 'Post', page: f.template, htmlContent: f.html })
  f.blogRoute = await make('routes', { path: '/post', pageData: { relationTo: 'blog_article_datas', value: f.blog } })
  f.link = await make('navigation_links', { label: 'Home', route: f.route, ...published() })
  f.dynamic = await make('component_positions', {
    componentGroup: f.group,
    pageDataClass: 'BlogArticleData',
    pageDataProperty: 'htmlContent',
  })
})
afterAll(async () => {
  await server?.close()
})

describe('item reads', () => {
  it.each([
    ['page', () => `/_api/_/pages/${f.page}`],
    ['layout', () => `/_api/_/layouts/${f.layout}`],
    ['route (with a redirecting route)', () => `/_api/_/routes/${f.route}`],
    ['route to page data', () => `/_api/_/routes/${f.blogRoute}`],
    ['component (groups and positions)', () => `/_api/component/html_contents/${f.html}`],
    ['component group', () => `/_api/_/component_groups/${f.group}`],
    ['component position', () => `/_api/_/component_positions/${f.position}`],
    ['page data', () => `/_api/page_data/blog_article_datas/${f.blog}`],
    ['navigation link (url read from its route)', () => `/_api/component/navigation_links/${f.link}`],
  ])('%s: at most 3 queries, anonymous and as admin', async (label, path) => {
    const anonymous = await cost(path())
    expectAtMost(anonymous, ITEM_MAX, `${label} (anonymous)`)
    const asAdmin = await cost(path(), { token: admin })
    expectAtMost(asAdmin, ITEM_MAX, `${label} (admin)`)
  })

  it('a filtered item read costs no more', async () => {
    expectAtMost(await cost(`/_api/_/pages/${f.page}?search=home&isTemplate=false`), ITEM_MAX, 'filtered page')
  })

  it('a dynamic position resolved through the path header (route path or page data IRI): at most 3 queries', async () => {
    const byRoute = await cost(`/_api/_/component_positions/${f.dynamic}`, { headers: { path: '/post' } })
    expect(byRoute.body.component).toBe(`/_api/component/html_contents/${f.html}`)
    expectAtMost(byRoute, ITEM_MAX, 'dynamic position, route path')
    const byIri = await cost(`/_api/_/component_positions/${f.dynamic}`, {
      headers: { path: `/_api/page_data/blog_article_datas/${f.blog}` },
    })
    expect(byIri.body.component).toBe(`/_api/component/html_contents/${f.html}`)
    expectAtMost(byIri, ITEM_MAX, 'dynamic position, page data IRI')
  })

  it('draft routing costs at most one query more than a plain read of the same component', async () => {
    // A published component in a position (as on a page), read anonymously: the plain read.
    const id = await make('html_contents', { html: '<p>live</p>', componentGroups: [f.group], ...published() })
    await make('component_positions', {
      componentGroup: f.group,
      component: { relationTo: 'html_contents', value: id },
      sortValue: 50,
    })
    const path = `/_api/component/html_contents/${id}`
    const plain = await cost(path)
    expect(plain.body.html).toBe('<p>live</p>')
    expectAtMost(plain, ITEM_MAX, 'published component (anonymous)')
    const plainAdmin = await cost(path, { token: admin })
    expect(plainAdmin.body.html).toBe('<p>live</p>')
    // The cheaper of the two plain reads is the baseline.
    const baseline = Math.min(plain.queries, plainAdmin.queries)
    // An admin edits it: a draft twin now holds the pending change.
    const edit = await server.patch(path, { html: '<p>pending</p>' }, { token: admin })
    expect(edit.status).toBe(200)
    const draftId = edit.body.id as string
    expect(draftId).not.toBe(id)

    const routed = await cost(path, { token: admin })
    expect(routed.body).toMatchObject({ '@id': `/_api/component/html_contents/${draftId}`, html: '<p>pending</p>' })
    expectAtMost(routed, baseline + 1, 'admin read of the published IRI, routed to its draft')
    const byDraftIri = await cost(`/_api/component/html_contents/${draftId}`, { token: admin })
    expect(byDraftIri.body.html).toBe('<p>pending</p>')
    expectAtMost(byDraftIri, baseline + 1, 'admin read of the draft IRI')
    const explicit = await cost(`${path}?published=true`, { token: admin })
    expect(explicit.body.html).toBe('<p>live</p>')
    expectAtMost(explicit, baseline + 1, 'admin read with ?published=true')
    const stillPublic = await cost(path)
    expect(stillPublic.body.html).toBe('<p>live</p>')
    expectAtMost(stillPublic, baseline + 1, 'anonymous read of a component that has a draft')
  })

  it('a 404 costs at most one query', async () => {
    const { result, queries } = await server.countQueries(() =>
      server.get('/_api/_/pages/00000000-0000-4000-8000-000000000000'),
    )
    expect(result.status).toBe(404)
    expect(queries).toBeLessThanOrEqual(1)
    const invalid = await server.countQueries(() => server.get('/_api/_/pages/not-a-uuid'))
    expect(invalid.result.status).toBe(404)
    expect(invalid.queries).toBe(0)
  })
})

describe('collection reads: at most 4 queries, the same for 5 or 60 members', () => {
  const collections: Array<[string, string, string?]> = [
    ['pages', '/_api/_/pages'],
    ['routes', '/_api/_/routes'],
    ['components', '/_api/component/html_contents', 'admin'],
    ['component positions', '/_api/_/component_positions'],
    ['page data', '/_api/page_data/blog_article_datas'],
  ]
  const small: Record<string, number> = {}

  it('5 members', async () => {
    await grow(5, 'small')
    for (const [label, path, who] of collections) {
      const measured = await cost(`${path}?itemsPerPage=5`, { token: who ? admin : undefined })
      expect({ label, members: measured.body.member.length }).toEqual({ label, members: 5 })
      // A signed-in reader costs one query more: the session check (the user's enabled state and token version).
      expectAtMost(measured, COLLECTION_MAX + (who ? 1 : 0), `${label} (5 members)`)
      small[label] = measured.queries
    }
  })

  it('60 members: no query per member', async () => {
    await grow(55, 'large')
    for (const [label, path, who] of collections) {
      const measured = await cost(`${path}?itemsPerPage=60`, { token: who ? admin : undefined })
      expect({ label, members: measured.body.member.length }).toEqual({ label, members: 60 })
      expectAtMost(measured, COLLECTION_MAX + (who ? 1 : 0), `${label} (60 members)`)
      expect({ label, queries: measured.queries }).toEqual({ label, queries: small[label] })
    }
  })

  it('layouts and component groups', async () => {
    expectAtMost(await cost('/_api/_/layouts'), COLLECTION_MAX, 'layouts')
    expectAtMost(await cost('/_api/_/component_groups'), COLLECTION_MAX, 'component groups')
  })

  it('the default page (30) of page data with search and order', async () => {
    const measured = await cost('/_api/page_data/blog_article_datas?search=large&order[title]=asc')
    expect(measured.body.member).toHaveLength(12)
    expectAtMost(measured, COLLECTION_MAX, 'page data, searched and ordered')
    const pages = await cost('/_api/_/pages?search=page&isTemplate=false&order[reference]=desc')
    expect(pages.body.member).toHaveLength(30)
    expectAtMost(pages, COLLECTION_MAX, 'pages, searched and ordered')
  })

  it('positions resolved through the path header: at most 4 queries for the whole collection', async () => {
    for (let i = 0; i < 10; i++) {
      await make('component_positions', {
        componentGroup: f.group,
        pageDataClass: 'BlogArticleData',
        pageDataProperty: 'htmlContent',
        sortValue: 1000 + i,
      })
    }
    const measured = await cost('/_api/_/component_positions?itemsPerPage=100&order[sortValue]=desc', {
      headers: { path: '/post' },
    })
    const resolved = measured.body.member.filter(
      (m: { pageDataClass: string | null }) => m.pageDataClass === 'BlogArticleData',
    )
    expect(resolved.length).toBeGreaterThanOrEqual(10)
    for (const member of resolved) expect(member.component).toBe(`/_api/component/html_contents/${f.html}`)
    expectAtMost(measured, COLLECTION_MAX, 'positions with path header')
  })
})
