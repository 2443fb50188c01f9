import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { routeLiveness } from '../../../plugins/routes/liveness'
import { startTestServer, type TestServer } from '../../support/server'
import { inSeconds, routeFixtures } from '../support'

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
  server = await startTestServer()
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
    const later = (await routeLiveness(server.payload, { ids: [childRoute.id], at: new Date(Date.now() + 7200_000) })).get(childRoute.id)!
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
