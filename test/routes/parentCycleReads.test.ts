/**
 * Issue 11, "Integrity under odd data": parent cycles are refused on write
 * now, but a database may hold some from before (or from SQL). Routes
 * attached to such pages (two pages each other's parent, a page its own
 * parent, two page data records each other's parent) are created, and every
 * read of them answers, quickly and with a defined answer: the route, the
 * manifest (the ancestor chain stops where it repeats), the children (the
 * tree stops where it repeats), the route collection, the sitemap, and
 * public reads under routableSecurity (the recursive CTEs' depth bound).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { fixtures, idOf } from '../support/routeStructure'

let server: TestServer
let admin: string
let f: ReturnType<typeof fixtures>
const cyc: Record<string, string> = {}
const route: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer({ options: { routableSecurity: 'ROLE_ADMIN' } })
  admin = await server.tokenFor('ROLE_ADMIN')
  f = fixtures(server, () => admin)
  const layout = await f.layout()
  const template = await f.page(layout, { title: 'Template', isTemplate: true })
  cyc.a = await f.page(layout, { title: 'Cycle A' })
  cyc.b = await f.page(layout, { title: 'Cycle B' })
  cyc.self = await f.page(layout, { title: 'Self Parent' })
  cyc.d1 = await f.article(template, 'Data One')
  cyc.d2 = await f.article(template, 'Data Two')
  // The cycles, written past the API's refusal.
  await server.sql(`UPDATE _acb_pages SET parent_page_id = $2 WHERE id = $1`, [idOf(cyc.a), idOf(cyc.b)])
  await server.sql(`UPDATE _acb_pages SET parent_page_id = $2 WHERE id = $1`, [idOf(cyc.b), idOf(cyc.a)])
  await server.sql(`UPDATE _acb_pages SET parent_page_id = id WHERE id = $1`, [idOf(cyc.self)])
  for (const [child, parent] of [
    [cyc.d1, cyc.d2],
    [cyc.d2, cyc.d1],
  ]) {
    await server.sql(
      `INSERT INTO _acb_blog_article_datas_rels ("order", parent_id, path, _acb_blog_article_datas_id) VALUES (1, $1, 'parentPageData', $2)`,
      [idOf(child!), idOf(parent!)],
    )
  }
  // A normal child under the cycle.
  cyc.child = await f.page(layout, { title: 'Under A', parentPage: cyc.a })
  // Routes on them (each creation recomputes the go-live dates across the cycles).
  route.a = await f.route('/cycle-a', { page: cyc.a })
  route.b = await f.route('/cycle-b', { page: cyc.b })
  route.self = await f.route('/self-parent', { page: cyc.self })
  route.d1 = await f.route('/data-one', { pageData: cyc.d1 })
  route.d2 = await f.route('/data-two', { pageData: cyc.d2 })
  route.child = await f.route('/cycle-a/under-a', { page: cyc.child })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const timed = async <T>(fn: () => Promise<T>): Promise<T> => {
  const started = Date.now()
  const result = await fn()
  expect(Date.now() - started).toBeLessThan(5_000)
  return result
}

describe('routes attached to pages in a parent cycle', () => {
  it('every route is live: its go-live date is the latest of the cycle’s (stored, not null)', async () => {
    const rows = await server.sql(
      `SELECT path, live_at, effective_live_at FROM _acb_routes WHERE path = ANY($1) ORDER BY path`,
      [['/cycle-a', '/cycle-b', '/self-parent', '/data-one', '/data-two', '/cycle-a/under-a']],
    )
    expect(rows).toHaveLength(6)
    for (const row of rows) expect(row.effective_live_at).not.toBeNull()
  })

  it('GET the route by path answers 200, for an admin and an anonymous caller', async () => {
    for (const path of ['/cycle-a', '/cycle-b', '/self-parent', '/data-one', '/data-two', '/cycle-a/under-a']) {
      const anonymous = await timed(() => server.get(`/_api/_/routes/${encodeURIComponent(path)}`))
      expect({ path, status: anonymous.status }).toEqual({ path, status: 200 })
      expect(
        (await timed(() => server.get(`/_api/_/routes/${encodeURIComponent(path)}`, { token: admin }))).status,
      ).toBe(200)
    }
  })

  it('the manifest answers 200; the ancestor chain stops where it repeats (each record once)', async () => {
    const manifest = await timed(() => server.get(`/_api/_/resource_manifest/${encodeURIComponent('/cycle-a')}`))
    expect(manifest.status).toBe(200)
    const roots = manifest.body.resource_iris.map((node: { iri: string }) => node.iri)
    // B (A's parent) first, then the requested route; A is not repeated above B.
    expect(roots).toEqual([cyc.b, route.a])
    const self = await timed(() => server.get(`/_api/_/resource_manifest/${encodeURIComponent('/self-parent')}`))
    expect(self.status).toBe(200)
    expect(self.body.resource_iris.map((node: { iri: string }) => node.iri)).toEqual([route.self])
    const data = await timed(() => server.get(`/_api/_/resource_manifest/${encodeURIComponent('/data-one')}`))
    expect(data.status).toBe(200)
    expect(data.body.resource_iris.map((node: { iri: string }) => node.iri)).toEqual([cyc.d2, route.d1])
    const child = await timed(() => server.get(`/_api/_/resource_manifest/${encodeURIComponent('/cycle-a/under-a')}`))
    expect(child.status).toBe(200)
    expect(child.body.resource_iris.map((node: { iri: string }) => node.iri)).toEqual([cyc.b, cyc.a, route.child])
  })

  it('the children answer 200; the tree stops where it repeats', async () => {
    const children = await timed(() =>
      server.get(`/_api/_/routes/${encodeURIComponent('/cycle-a')}/children`, { token: admin }),
    )
    expect(children.status).toBe(200)
    const paths = (nodes: Array<{ path: string; children: unknown[] }>): unknown[] =>
      nodes
        .map((n) => ({ path: n.path, children: paths(n.children as never) }))
        .sort((x, y) => String((x as { path: string }).path).localeCompare((y as { path: string }).path))
    expect(paths(children.body.children)).toEqual([
      { path: '/cycle-a/under-a', children: [] },
      { path: '/cycle-b', children: [] },
    ])
    const self = await timed(() =>
      server.get(`/_api/_/routes/${encodeURIComponent('/self-parent')}/children`, { token: admin }),
    )
    expect(self.status).toBe(200)
    expect(self.body.children).toEqual([])
    const data = await timed(() =>
      server.get(`/_api/_/routes/${encodeURIComponent('/data-one')}/children`, { token: admin }),
    )
    expect(data.status).toBe(200)
    expect(paths(data.body.children)).toEqual([{ path: '/data-two', children: [] }])
  })

  it('the route collection lists them all, for an admin and an anonymous caller', async () => {
    for (const token of [admin, undefined]) {
      const list = await timed(() => server.get('/_api/_/routes?itemsPerPage=100', { token }))
      expect(list.status).toBe(200)
      const paths = list.body.member.map((r: { path: string }) => r.path)
      expect(paths).toEqual(
        expect.arrayContaining(['/cycle-a', '/cycle-b', '/self-parent', '/data-one', '/data-two', '/cycle-a/under-a']),
      )
    }
  })

  it('the pages, the page data and their collections answer an anonymous caller (routableSecurity: reachable through the live routes)', async () => {
    for (const iri of [cyc.a, cyc.b, cyc.self, cyc.d1, cyc.d2, cyc.child]) {
      expect({ iri, status: (await timed(() => server.get(iri!))).status }).toEqual({ iri, status: 200 })
    }
    expect((await timed(() => server.get('/_api/_/pages'))).status).toBe(200)
    expect((await timed(() => server.get('/_api/page_data/blog_article_datas'))).status).toBe(200)
  })

  it('the sitemap lists them', async () => {
    const sitemap = await timed(() => server.get('/sitemap.xml'))
    expect(sitemap.status).toBe(200)
    for (const path of ['/cycle-a', '/cycle-b', '/self-parent', '/data-one', '/data-two'])
      expect(sitemap.text).toContain(`${path}</loc>`)
  })

  it('a go-live date change on one route of the cycle reaches the others (recomputed across the cycle, bounded)', async () => {
    const patched = await server.patch(
      route.b!,
      { liveAt: null },
      { token: admin, contentType: 'application/merge-patch+json' },
    )
    expect(patched.status).toBe(200)
    // A's ancestor chain holds B: A is no longer live, nor is A's child.
    expect((await server.get(`/_api/_/routes/${encodeURIComponent('/cycle-a')}`)).status).toBe(404)
    expect((await server.get(`/_api/_/routes/${encodeURIComponent('/cycle-a/under-a')}`)).status).toBe(404)
    expect((await server.get(`/_api/_/routes/${encodeURIComponent('/self-parent')}`)).status).toBe(200)
  })

  it('a ring of 100 pages (longer than the 64-level bound of the go-live walk) answers too', async () => {
    const layoutId = (await server.sql(`SELECT layout_id FROM _acb_pages WHERE id = $1`, [idOf(cyc.a)]))[0].layout_id
    const ring = await server.sql(
      `INSERT INTO _acb_pages (reference, title, is_template, layout_id) SELECT 'ring-' || n, 'Ring ' || n, false, $1 FROM generate_series(1, 100) n RETURNING id`,
      [layoutId],
    )
    const ids = ring.map((r) => r.id as string)
    await server.sql(
      `UPDATE _acb_pages p SET parent_page_id = (($1::uuid[])[(array_position($1::uuid[], p.id) % 100) + 1]) WHERE p.id = ANY($1::uuid[])`,
      [ids],
    )
    const created = await timed(() =>
      server.post('/_api/_/routes', { path: '/ring', page: `/_api/_/pages/${ids[0]}` }, { token: admin }),
    )
    expect(created.status).toBe(201)
    expect((await timed(() => server.get(`/_api/_/routes/${encodeURIComponent('/ring')}`))).status).toBe(200)
    const manifest = await timed(() => server.get(`/_api/_/resource_manifest/${encodeURIComponent('/ring')}`))
    expect(manifest.status).toBe(200)
    // Every other page of the ring is an ancestor, once.
    expect(manifest.body.resource_iris).toHaveLength(100)
    expect(
      (await timed(() => server.get(`/_api/_/routes/${encodeURIComponent('/ring')}/children`, { token: admin })))
        .status,
    ).toBe(200)
    expect((await timed(() => server.get('/_api/_/routes?itemsPerPage=100'))).status).toBe(200)
  })
})
