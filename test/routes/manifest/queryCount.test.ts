/**
 * The resource manifest stays two SQL queries (plus the session check of a
 * signed-in caller) whatever
 * the page holds (issue #5): the same count for a page with 5 components as
 * for one with 50, spread over the layout, the page, nested component
 * groups, a template with a dynamic position and three rendering depths.
 * Counted from the pg client around one real HTTP request.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { builder, flatten, manifestSite, type Node } from './manifestSite'

let server: TestServer
let admin: string
let b: ReturnType<typeof builder>

/** The route (with its stored effective go-live date) and its target's ancestor chain, then the containment walk; a signed-in caller adds the session check. */
const MAX_QUERIES = { anonymous: 2, admin: 3 }

async function measure(path: string, token?: string) {
  const { result, queries, sql } = await server.countQueries(() =>
    server.get(`/_api/_/resource_manifest/${encodeURIComponent(path)}`, { token }),
  )
  expect(result.status).toBe(200)
  const components = (result.body.resource_iris as Node[])
    .flatMap(flatten)
    .filter((iri) => iri.includes('/component/html_contents/')).length
  return { queries, sql, components }
}

beforeAll(async () => {
  // Queries of Payload's path: with the read model a repeated read is one statement, measured by the bench.
  server = await startTestServer({ options: { readModel: { enabled: false } } })
  admin = await server.tokenFor('ROLE_ADMIN')
  b = builder(server.payload)
  await manifestSite(b, 'small', 5)
  await manifestSite(b, 'large', 50)
})
afterAll(async () => {
  await server?.close()
})

describe('manifest SQL cost', () => {
  it.each([
    ['anonymous', () => undefined, MAX_QUERIES.anonymous],
    ['admin (draft routing)', () => admin, MAX_QUERIES.admin],
  ])('is the same for 5 and 50 components (%s)', async (_label, token, max) => {
    const small = await measure('/small/article/child', token())
    const large = await measure('/large/article/child', token())
    expect(small.components).toBe(6)
    expect(large.components).toBe(51)
    expect({ small: small.queries, large: large.queries }).toEqual({ small: large.queries, large: small.queries })
    expect({ queries: large.queries, sql: large.queries > max ? large.sql.map((s) => s.slice(0, 120)) : [] }).toEqual({
      queries: large.queries,
      sql: [],
    })
  })
})
