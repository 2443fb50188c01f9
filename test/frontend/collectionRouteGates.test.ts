import { afterAll, beforeAll, expect, it } from '@jest/globals'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'

/**
 * The Collection component under route gates (routableSecurity set): a
 * record whose route is not live is left out of the proxied collection
 * for a caller without the permission, as it is from a direct GET of the
 * collection. Attack: reading an unpublished article's title through the
 * blog listing before its go-live date.
 */

const P = '/_api'
let server: TestServer
let superAdmin: string
let listing: string

beforeAll(async () => {
  server = await startTestServer({ options: { routableSecurity: 'ROLE_SUPER_ADMIN' } })
  await seedDemo(server.payload, { apiPrefix: P })
  superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
  listing = (await server.get(`${P}/component/collections`)).body.member[0]['@id']
  const future = new Date(Date.now() + 86_400_000).toISOString()
  const patched = await server.patch(`${P}/_/routes//blog/second-article`, { liveAt: future }, { token: superAdmin })
  expect(patched.status).toBe(200)
})
afterAll(async () => {
  await server?.close()
})

const titles = (body: { collection: { member: Array<{ title: string }> } }) =>
  body.collection.member.map((m) => m.title).sort()

it('leaves a record with a scheduled route out for an anonymous reader, like the direct collection GET', async () => {
  const direct = (await server.get(`${P}/page_data/blog_article_datas`)).body
  expect(direct.member.map((m: { title: string }) => m.title)).toEqual(['First article'])
  const response = await server.get(listing)
  expect(response.status).toBe(200)
  expect(titles(response.body)).toEqual(['First article'])
  expect(response.body.collection.totalItems).toBe(1)
  expect(response.text).not.toContain('Second article')
})

it('shows it to a caller with the permission', async () => {
  expect(titles((await server.get(listing, { token: superAdmin })).body)).toEqual(['First article', 'Second article'])
})
