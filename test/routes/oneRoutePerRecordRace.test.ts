/**
 * Issue 11, "Integrity under races": one route per page or page data record
 * was a check-then-insert, so two concurrent creations for one record could
 * both succeed. Now the check runs under a lock on the record and unique
 * indexes (migration 20261123_141000_integrity) back it: parallel creations
 * through the JSON-LD API, Payload's REST API and route generation give
 * exactly one route, the others a clean refusal (never a 500).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { TestServer } from '../support/server'
import { fixtures, idOf, startStructureSite } from '../support/routeStructure'

const N = 6
let server: TestServer
let admin: string
let f: ReturnType<typeof fixtures>
let layout: string
let template: string

beforeAll(async () => {
  ;({ server, admin, f, layout, template } = await startStructureSite())
})
afterAll(async () => {
  await server?.close()
})

/** Payload's REST API reads the JSON-LD session's JWT cookie (the admin panel's session). */
const rest = () => ({ headers: { cookie: `api_component=${admin}` }, contentType: 'application/json' })
const statuses = (responses: Array<{ status: number }>) => responses.map((r) => r.status).sort()
const expected = (winner: number, rest: number) => [winner, ...Array(N - 1).fill(rest)].sort()

/** Routes stored for a record, straight from the database. */
async function routesOf(target: { page?: string; pageData?: string }): Promise<string[]> {
  const routes = await f.routes()
  return [...routes.entries()]
    .filter(([, r]) => (target.page ? r.page === idOf(target.page) : r.pageData === idOf(target.pageData!)))
    .map(([path]) => path)
}

describe('concurrent route creations for one record (race)', () => {
  it(`${N} parallel POST /_api/_/routes for one page: one 201, the rest 422 on page, one route stored`, async () => {
    const page = await f.page(layout, { title: 'Raced Page' })
    const tag = Math.random().toString(36).slice(2, 8)
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        server.post('/_api/_/routes', { path: `/race-page-${tag}-${i}`, page }, { token: admin }),
      ),
    )
    expect(statuses(responses)).toEqual(expected(201, 422))
    for (const refused of responses.filter((r) => r.status === 422)) {
      expect(refused.body['@type']).toBe('ConstraintViolation')
      expect(refused.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['page'])
    }
    expect(await routesOf({ page })).toHaveLength(1)
    const created = responses.find((r) => r.status === 201)!
    expect((await server.get(page, { token: admin })).body.route).toBe(created.body['@id'])
  })

  it(`${N} parallel POST /_api/_/routes for one page data record: one 201, the rest 422 on pageData`, async () => {
    const pageData = await f.article(template, 'Raced Article')
    const tag = Math.random().toString(36).slice(2, 8)
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        server.post('/_api/_/routes', { path: `/race-data-${tag}-${i}`, pageData }, { token: admin }),
      ),
    )
    expect(statuses(responses)).toEqual(expected(201, 422))
    for (const refused of responses.filter((r) => r.status === 422)) {
      expect(refused.body.violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['pageData'])
    }
    expect(await routesOf({ pageData })).toHaveLength(1)
  })

  it(`${N} parallel POST /api/routes (Payload REST) for one page: one 201, the rest 400 ValidationError on page`, async () => {
    const page = await f.page(layout, { title: 'Raced Through REST' })
    const tag = Math.random().toString(36).slice(2, 8)
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        server.request('POST', '/api/routes', { path: `/race-rest-${tag}-${i}`, page: idOf(page) }, rest()),
      ),
    )
    expect(statuses(responses)).toEqual(expected(201, 400))
    for (const refused of responses.filter((r) => r.status === 400)) {
      expect(refused.body.errors).toHaveLength(1)
      expect(refused.body.errors[0].name).toBe('ValidationError')
      expect(refused.body.errors[0].data.errors.map((e: { path: string }) => e.path)).toEqual(['page'])
    }
    expect(await routesOf({ page })).toHaveLength(1)
  })

  it(`${N} parallel POST /api/routes (Payload REST) for one page data record: one 201, the rest 400 on pageData`, async () => {
    const pageData = await f.article(template, 'Raced Article Through REST')
    const tag = Math.random().toString(36).slice(2, 8)
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        server.request(
          'POST',
          '/api/routes',
          {
            path: `/race-rest-data-${tag}-${i}`,
            pageData: { relationTo: 'blog_article_datas', value: idOf(pageData) },
          },
          rest(),
        ),
      ),
    )
    expect(statuses(responses)).toEqual(expected(201, 400))
    for (const refused of responses.filter((r) => r.status === 400)) {
      expect(refused.body.errors[0].data.errors.map((e: { path: string }) => e.path)).toEqual(['pageData'])
    }
    expect(await routesOf({ pageData })).toHaveLength(1)
  })

  it(`${N} parallel POST /_api/_/routes/generate for one page: one 201, the rest 200 with that same route`, async () => {
    const page = await f.page(layout, { title: `Generated In A Race ${Math.random().toString(36).slice(2, 8)}` })
    const responses = await Promise.all(Array.from({ length: N }, () => f.generate({ page })))
    expect(statuses(responses)).toEqual(expected(201, 200))
    const ids = new Set(responses.map((r) => r.body['@id']))
    expect(ids.size).toBe(1)
    const paths = await routesOf({ page })
    expect(paths).toHaveLength(1)
    // No redirect left behind by a losing generation.
    expect([...(await f.routes()).values()].filter((r) => r.redirect === idOf([...ids][0]))).toHaveLength(0)
  })

  it(`${N} parallel POST /_api/_/routes/generate for one page data record: one route, no redirect`, async () => {
    const pageData = await f.article(template, `Generated Data In A Race ${Math.random().toString(36).slice(2, 8)}`)
    const responses = await Promise.all(Array.from({ length: N }, () => f.generate({ pageData })))
    expect(statuses(responses)).toEqual(expected(201, 200))
    expect(new Set(responses.map((r) => r.body['@id'])).size).toBe(1)
    expect(await routesOf({ pageData })).toHaveLength(1)
  })
})

describe('the database holds the rule on its own', () => {
  it('a second route for a page written past the hooks (database adapter) is a ValidationError on page', async () => {
    const page = await f.page(layout, { title: 'Backstop Page' })
    await f.route(`/backstop-${Math.random().toString(36).slice(2, 8)}`, { page })
    const db = server.payload.db as unknown as { create(args: Record<string, unknown>): Promise<unknown> }
    const error = await db
      .create({
        collection: 'routes',
        data: { path: `/backstop-2-${Math.random().toString(36).slice(2, 8)}`, page: idOf(page) },
      })
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(error).toMatchObject({ name: 'ValidationError' })
    expect((error as { data: { errors: Array<{ path: string }> } }).data.errors.map((e) => e.path)).toEqual(['page'])
    expect(await routesOf({ page })).toHaveLength(1)
  })

  it('a second route for a page data record written past the hooks is a ValidationError on pageData', async () => {
    const pageData = await f.article(template, 'Backstop Article')
    await f.route(`/backstop-data-${Math.random().toString(36).slice(2, 8)}`, { pageData })
    const db = server.payload.db as unknown as { create(args: Record<string, unknown>): Promise<unknown> }
    const error = await db
      .create({
        collection: 'routes',
        data: {
          path: `/backstop-data-2-${Math.random().toString(36).slice(2, 8)}`,
          pageData: { relationTo: 'blog_article_datas', value: idOf(pageData) },
        },
      })
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect((error as { data: { errors: Array<{ path: string }> } }).data.errors.map((e) => e.path)).toEqual([
      'pageData',
    ])
    expect(await routesOf({ pageData })).toHaveLength(1)
  })

  it('plain SQL cannot give a page a second route (unique index _acb_routes_page_unique)', async () => {
    const page = await f.page(layout, { title: 'SQL Page' })
    await f.route(`/sql-${Math.random().toString(36).slice(2, 8)}`, { page })
    const error = await server
      .sql(`INSERT INTO _acb_routes (path, page_id) VALUES ($1, $2)`, [`/sql-2-${Math.random()}`, idOf(page)])
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(error).toMatchObject({ code: '23505', constraint: '_acb_routes_page_unique' })
  })

  it('a redirect, a moved route and a regenerated route are still allowed (one route per record, redirects free)', async () => {
    const page = await f.page(layout, { title: 'Moving Page' })
    const first = (await f.generate({ page })).body
    await server.patch(page, { title: 'Moved Page' }, { token: admin })
    const second = await f.generate({ page })
    expect(second.status).toBe(201)
    const routes = await f.routes()
    expect(routes.get(first.path)).toMatchObject({ page: null, redirect: idOf(second.body['@id']) })
    // The record moves to another route through PATCH: the old one lets go in the same write sequence.
    const other = await f.page(layout, { title: 'Other Page' })
    const otherRoute = await f.route(`/other-${Math.random().toString(36).slice(2, 8)}`, { page: other })
    expect((await server.patch(otherRoute, { page }, { token: admin })).status).toBe(422)
  })
})
