import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { recomputeEffectiveLiveAt } from '../../../plugins/cwa/dist/features/routes/access/recompute.js'
import { routeLiveness } from '../../../plugins/cwa/dist/features/routes/liveness.js'
import { startTestServer, type TestServer } from '../../support/server'
import { inSeconds, routeFixtures } from '../../support/routeFixtures'

/**
 * Route liveness (contract, "Route liveness"): the effective go-live date is
 * the latest of the route's own liveAt and that of every routed ancestor
 * (parentPage or parentPageData); any null gates; an ancestor without a
 * route is skipped. Computed in one SQL query.
 */

let server: TestServer
let fx: ReturnType<typeof routeFixtures>
let layout: string

beforeAll(async () => {
  // Queries of Payload's path: with the read model a repeated read is one statement, measured by the bench.
  server = await startTestServer({ options: { readModel: { enabled: false } } })
  fx = routeFixtures(server.payload)
  layout = (await fx.layout()).id
})
afterAll(async () => {
  await server?.close()
})

describe('effective go-live date', () => {
  it('defaults liveAt to now on Local API creation, so a new route is live', async () => {
    const before = Date.now()
    const route = await fx.route(`/${fx.unique('plain')}`, { page: (await fx.page(layout)).id })
    const liveAt = new Date(route.liveAt).getTime()
    expect(liveAt).toBeGreaterThanOrEqual(before - 1000)
    expect(liveAt).toBeLessThanOrEqual(Date.now())
    const live = (await routeLiveness(server.payload, { ids: [route.id] })).get(route.id)
    expect(live).toMatchObject({ live: true, path: route.path })
    expect(live!.effectiveLiveAt!.getTime()).toBe(liveAt)
  })

  it('inherits through a middle ancestor without a route (skipped, never gates)', async () => {
    const grand = await fx.page(layout)
    const middle = await fx.page(layout, { parentPage: grand.id })
    const child = await fx.page(layout, { parentPage: middle.id })
    const grandRoute = await fx.route(`/${fx.unique('grand')}`, { page: grand.id }, '2020-01-02T00:00:00.000Z')
    const childRoute = await fx.route(`/${fx.unique('child')}`, { page: child.id }, '2020-01-01T00:00:00.000Z')
    const map = await routeLiveness(server.payload, { ids: [childRoute.id, grandRoute.id] })
    expect(map.get(childRoute.id)!.effectiveLiveAt!.toISOString()).toBe('2020-01-02T00:00:00.000Z')
    expect(map.get(childRoute.id)!.live).toBe(true)
  })

  it('a grand-parent scheduled in the future keeps the grand-child not live until then', async () => {
    const grand = await fx.page(layout)
    const middle = await fx.article((await fx.page(layout, { isTemplate: true })).id, { parentPage: grand.id })
    const child = await fx.page(layout, { parentPageData: { relationTo: 'blog_article_datas', value: middle.id } })
    const future = inSeconds(3600)
    await fx.route(`/${fx.unique('grand')}`, { page: grand.id }, future)
    await fx.route(`/${fx.unique('middle')}`, { pageData: { relationTo: 'blog_article_datas', value: middle.id } })
    const childRoute = await fx.route(`/${fx.unique('child')}`, { page: child.id })
    const now = (await routeLiveness(server.payload, { ids: [childRoute.id] })).get(childRoute.id)!
    expect(now.live).toBe(false)
    expect(now.effectiveLiveAt!.toISOString()).toBe(future)
    const later = (
      await routeLiveness(server.payload, { ids: [childRoute.id], at: new Date(Date.now() + 7200_000) })
    ).get(childRoute.id)!
    expect(later.live).toBe(true)
  })

  it('a routed ancestor with liveAt null makes every descendant route not live', async () => {
    const parent = await fx.page(layout)
    const child = await fx.page(layout, { parentPage: parent.id })
    await fx.route(`/${fx.unique('offline')}`, { page: parent.id }, null)
    const childRoute = await fx.route(`/${fx.unique('child')}`, { page: child.id })
    const result = (await routeLiveness(server.payload, { ids: [childRoute.id] })).get(childRoute.id)!
    expect(result).toMatchObject({ live: false, effectiveLiveAt: null })
    expect(result.liveAt).not.toBeNull()
  })

  it('computes every route in a single SQL statement', async () => {
    const { queries } = await server.countQueries(() => routeLiveness(server.payload))
    expect(queries).toBe(1)
  })
})

describe('reads stay a few queries with 1,000 routes', () => {
  it('the collection, an item by path and the whole liveness map', async () => {
    // 1,000 pages in chains of ten (each the child of the one before), each with a route; every tenth chain starts offline.
    await server.sql(
      `INSERT INTO _acb_pages (id, reference, layout_id, title)
      SELECT ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'bulk-' || i, $1, 'Bulk ' || i FROM generate_series(1, 1000) i`,
      [layout],
    )
    await server.sql(`UPDATE _acb_pages SET parent_page_id = ('00000000-0000-4000-8000-' || lpad((substr(reference, 6)::int - 1)::text, 12, '0'))::uuid
      WHERE reference LIKE 'bulk-%' AND substr(reference, 6)::int % 10 <> 1`)
    await server.sql(`INSERT INTO _acb_routes (path, page_id, live_at)
      SELECT '/bulk/' || i, ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, CASE WHEN i % 100 = 1 THEN NULL ELSE now() - interval '1 day' END
      FROM generate_series(1, 1000) i`)
    await recomputeEffectiveLiveAt(server.payload)
    const all = await server.countQueries(() => routeLiveness(server.payload))
    expect(all.queries).toBe(1)
    // Chains starting at 1, 101, 201... are offline: ten of them, ten routes each.
    const bulk = [...all.result.values()].filter((r) => r.path.startsWith('/bulk/'))
    expect(bulk).toHaveLength(1000)
    expect(bulk.filter((r) => !r.live)).toHaveLength(100)
    expect(all.result.get(bulk.find((r) => r.path === '/bulk/105')!.id)!.live).toBe(false)
    expect(all.result.get(bulk.find((r) => r.path === '/bulk/115')!.id)!.live).toBe(true)

    const list = await server.countQueries(() => server.get('/_api/_/routes?itemsPerPage=100'))
    expect(list.result.status).toBe(200)
    expect(list.result.body.totalItems).toBe([...all.result.values()].filter((r) => r.live).length)
    expect(list.queries).toBeLessThanOrEqual(3)
    const item = await server.countQueries(() => server.get('/_api/_/routes//bulk/115'))
    expect(item.result.status).toBe(200)
    expect(item.queries).toBeLessThanOrEqual(2)
    const gated = await server.countQueries(() => server.get('/_api/_/routes//bulk/105'))
    expect(gated.result.status).toBe(404)
    expect(gated.queries).toBeLessThanOrEqual(1)
  })
})
