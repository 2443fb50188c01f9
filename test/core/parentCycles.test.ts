/**
 * Issue 11, "Integrity under odd data": a page or page data record could be
 * made its own parent, or two records each other's parent. A write that
 * would make a record its own ancestor (self, two-record and longer cycles,
 * across pages and page data) is now refused on the parent property: 422 on
 * the JSON-LD API, Payload's 400 ValidationError on /api (the admin panel
 * runs the same hook), and nothing is stored. Two concurrent writes cannot
 * close a cycle together. The check costs the writes that set a parent
 * two statements (a lock and one recursive query), nothing for the others.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { TestServer } from '../support/server'
import { fixtures, idOf, startStructureSite } from '../support/routeStructure'

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

const auth = () => ({ token: admin })
const rest = () => ({ headers: { cookie: `api_component=${admin}` }, contentType: 'application/json' })
const propertyPaths = (body: { violations?: Array<{ propertyPath: string }> }) =>
  (body.violations ?? []).map((v) => v.propertyPath)

async function parentPageOf(iri: string): Promise<string | null> {
  const table = iri.includes('/page_data/') ? '_acb_blog_article_datas' : '_acb_pages'
  return (await server.sql(`SELECT parent_page_id FROM ${table} WHERE id = $1`, [idOf(iri)]))[0]?.parent_page_id ?? null
}
async function parentPageDataOf(iri: string): Promise<string | null> {
  const table = iri.includes('/page_data/') ? '_acb_blog_article_datas_rels' : '_acb_pages_rels'
  const rows = await server.sql(
    `SELECT _acb_blog_article_datas_id AS id FROM ${table} WHERE parent_id = $1 AND path = 'parentPageData'`,
    [idOf(iri)],
  )
  return rows[0]?.id ?? null
}

describe('a parent cycle is refused on the JSON-LD API (422 on the parent property, nothing stored)', () => {
  it('a page made its own parent', async () => {
    const a = await f.page(layout)
    const response = await server.patch(a, { parentPage: a }, auth())
    expect(response.status).toBe(422)
    expect(response.body['@type']).toBe('ConstraintViolation')
    expect(propertyPaths(response.body)).toEqual(['parentPage'])
    expect(await parentPageOf(a)).toBeNull()
  })

  it('two pages each other’s parent (A under B while B is under A)', async () => {
    const a = await f.page(layout)
    const b = await f.page(layout, { parentPage: a })
    const response = await server.patch(a, { parentPage: b }, auth())
    expect(response.status).toBe(422)
    expect(propertyPaths(response.body)).toEqual(['parentPage'])
    expect(await parentPageOf(a)).toBeNull()
    expect(await parentPageOf(b)).toBe(idOf(a))
  })

  it('a longer cycle through pages and page data (A > D > C, then A under C)', async () => {
    const a = await f.page(layout)
    const d = await f.article(template, 'Cycle Data', { parentPage: a })
    const c = await f.page(layout, { parentPageData: d })
    const response = await server.patch(a, { parentPageData: d }, auth())
    expect(response.status).toBe(422)
    expect(propertyPaths(response.body)).toEqual(['parentPageData'])
    const deeper = await server.patch(a, { parentPage: c }, auth())
    expect(deeper.status).toBe(422)
    expect(propertyPaths(deeper.body)).toEqual(['parentPage'])
    expect(await parentPageOf(a)).toBeNull()
    expect(await parentPageDataOf(a)).toBeNull()
  })

  it('a page data record made its own parent, or the parent of its own parent', async () => {
    const d = await f.article(template, 'Self Data')
    const self = await server.patch(d, { parentPageData: d }, auth())
    expect(self.status).toBe(422)
    expect(propertyPaths(self.body)).toEqual(['parentPageData'])
    const child = await f.article(template, 'Child Data', { parentPageData: d })
    const back = await server.patch(d, { parentPageData: child }, auth())
    expect(back.status).toBe(422)
    expect(propertyPaths(back.body)).toEqual(['parentPageData'])
    expect(await parentPageDataOf(d)).toBeNull()
  })

  it('legitimate moves still work: under a sibling, under a grandchild of another branch, and back to the top', async () => {
    const root = await f.page(layout)
    const left = await f.page(layout, { parentPage: root })
    const right = await f.page(layout, { parentPage: root })
    const leaf = await f.article(template, 'Leaf', { parentPage: right })
    expect((await server.patch(left, { parentPageData: leaf, parentPage: null }, auth())).status).toBe(200)
    expect(await parentPageDataOf(left)).toBe(idOf(leaf))
    // Sending the parent it already has is no change (the admin panel sends every field on each save).
    expect((await server.patch(left, { parentPageData: leaf }, auth())).status).toBe(200)
    expect((await server.patch(left, { parentPageData: null }, auth())).status).toBe(200)
    expect(await parentPageDataOf(left)).toBeNull()
  })
})

describe('a parent cycle is refused on Payload’s REST API (/api, 400 ValidationError, nothing stored)', () => {
  it('PATCH /api/pages/{id} with the page as its own parent', async () => {
    const a = idOf(await f.page(layout))
    const response = await server.request('PATCH', `/api/pages/${a}`, { parentPage: a }, rest())
    expect(response.status).toBe(400)
    expect(response.body.errors[0].name).toBe('ValidationError')
    expect(response.body.errors[0].data.errors.map((e: { path: string }) => e.path)).toEqual(['parentPage'])
    expect(await parentPageOf(`/_api/_/pages/${a}`)).toBeNull()
  })

  it('PATCH /api/blog_article_datas/{id} closing a two-record cycle through parentPageData', async () => {
    const parent = await f.article(template, 'REST Parent')
    const child = await f.article(template, 'REST Child', { parentPageData: parent })
    const response = await server.request(
      'PATCH',
      `/api/blog_article_datas/${idOf(parent)}`,
      { parentPageData: { relationTo: 'blog_article_datas', value: idOf(child) } },
      rest(),
    )
    expect(response.status).toBe(400)
    expect(response.body.errors[0].data.errors.map((e: { path: string }) => e.path)).toEqual(['parentPageData'])
    expect(await parentPageDataOf(parent)).toBeNull()
  })
})

describe('concurrent parent writes (race)', () => {
  it('A under B and B under A sent at once: one 200, one 422, no cycle stored', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await f.page(layout)
      const b = await f.page(layout)
      const [toB, toA] = await Promise.all([
        server.patch(a, { parentPage: b }, auth()),
        server.patch(b, { parentPage: a }, auth()),
      ])
      expect([toB.status, toA.status].sort()).toEqual([200, 422])
      const stored = [await parentPageOf(a), await parentPageOf(b)]
      expect(stored.filter((p) => p !== null)).toHaveLength(1)
    }
  })
})

describe('cost', () => {
  it('a write that sets a parent costs two more statements (the lock and one recursive query) than one that does not', async () => {
    const top = await f.page(layout)
    const target = await f.page(layout)
    const deep = [top]
    for (let i = 0; i < 5; i++) deep.push(await f.page(layout, { parentPage: deep[deep.length - 1] }))
    const plain = await server.countQueries(() => server.patch(target, { title: 'Renamed' }, auth()))
    const parented = await server.countQueries(() =>
      server.patch(target, { title: 'Renamed again', parentPage: deep[deep.length - 1] }, auth()),
    )
    expect(plain.result.status).toBe(200)
    expect(parented.result.status).toBe(200)
    const cycleQueries = parented.sql.filter((q) => /cwa\.parent-graph|WITH RECURSIVE chain\(kind, id, trail\)/.test(q))
    expect(cycleQueries).toHaveLength(2)
    expect(plain.sql.filter((q) => /cwa\.parent-graph|WITH RECURSIVE chain\(kind, id, trail\)/.test(q))).toHaveLength(0)
  })
})
