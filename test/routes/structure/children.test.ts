/**
 * GET /_/routes/{route_path}/children (service contract, "Routes"): admin
 * only; a recursive tree of {route, path, children}; a page without a route
 * adds no node and its routed descendants appear under the nearest routed
 * ancestor; one recursive query, not one per node.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { TestServer } from '../../support/server'
import { type fixtures, startStructureSite } from '../../support/routeStructure'

let server: TestServer
let admin: string
let f: ReturnType<typeof fixtures>
let layout: string
let template: string
const r: Record<string, string> = {}

beforeAll(async () => {
  ;({ server, admin, f, layout, template } = await startStructureSite())
  // R > A > (B, no route) > C (page data) > D;  R > E;  R > (F, no route) > G;  R > (H, no route) with no routed child.
  const R = await f.page(layout, { title: 'R' })
  const A = await f.page(layout, { title: 'A', parentPage: R })
  const B = await f.page(layout, { title: 'B', parentPage: A })
  const C = await f.article(template, 'C', { parentPage: B })
  const D = await f.page(layout, { title: 'D', parentPageData: C })
  const E = await f.page(layout, { title: 'E', parentPage: R })
  const F = await f.page(layout, { title: 'F', parentPage: R })
  const G = await f.article(template, 'G', { parentPage: F })
  await f.page(layout, { title: 'H', parentPage: R })
  r.R = await f.route('/r', { page: R })
  r.A = await f.route('/r/a', { page: A })
  r.C = await f.route('/r/a/b/c', { pageData: C })
  r.D = await f.route('/r/a/b/c/d', { page: D })
  r.E = await f.route('/r/e', { page: E })
  r.G = await f.route('/r/f/g', { pageData: G })
  r.redirect = await f.route('/old-r', { redirect: r.R })
})
afterAll(async () => {
  await server?.close()
})

const node = (route: string, path: string, children: unknown[] = []) => ({ route, path, children })

describe('route children', () => {
  it('gives the routed subtree, unrouted pages skipped and their routed descendants lifted', async () => {
    const response = await server.get('/_api/_/routes//r/children', { token: admin })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      children: [
        node(r.A, '/r/a', [node(r.C, '/r/a/b/c', [node(r.D, '/r/a/b/c/d')])]),
        node(r.E, '/r/e'),
        node(r.G, '/r/f/g'),
      ],
    })
  })

  it('works from a deeper route (URL-encoded path) and for a leaf', async () => {
    const deeper = await server.get(`/_api/_/routes/${encodeURIComponent('/r/a')}/children`, { token: admin })
    expect(deeper.body).toEqual({ children: [node(r.C, '/r/a/b/c', [node(r.D, '/r/a/b/c/d')])] })
    expect((await server.get('/_api/_/routes//r/e/children', { token: admin })).body).toEqual({ children: [] })
    // A redirect route points at no record: no children.
    expect((await server.get('/_api/_/routes//old-r/children', { token: admin })).body).toEqual({ children: [] })
  })

  it('costs the same few queries for a bigger tree (one recursive walk, no query per node)', async () => {
    const small = await server.countQueries(() => server.get('/_api/_/routes//r/e/children', { token: admin }))
    const big = await server.countQueries(() => server.get('/_api/_/routes//r/children', { token: admin }))
    expect(big.result.status).toBe(200)
    expect(big.queries).toBe(small.queries)
    expect(big.queries).toBeLessThanOrEqual(4)
  })

  it('is admin only: anonymous 401, ROLE_USER 403 (the site structure is not public)', async () => {
    expect((await server.get('/_api/_/routes//r/children')).status).toBe(401)
    expect((await server.get('/_api/_/routes//r/children', { token: await server.tokenFor('ROLE_USER') })).status).toBe(
      403,
    )
  })

  it('answers 404 for an unknown route path', async () => {
    expect((await server.get('/_api/_/routes//nowhere/children', { token: admin })).status).toBe(404)
  })
})
