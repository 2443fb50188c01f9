import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { createRecord } from '../../support/fixtures'
import { routeFixtures } from '../../support/routeFixtures'

/**
 * "Public access follows routes", rule 3: routes are always held to it, but
 * without routable_security every page, page data and component is readable
 * by anyone. The access matrix anonymous / ROLE_USER / admin over a route
 * that is not live and what it points at.
 */

let server: TestServer
const ids: Record<string, string> = {}
const callers: Record<string, string | undefined> = {}

beforeAll(async () => {
  server = await startTestServer()
  const fx = routeFixtures(server.payload)
  const create = (collection: string, data: Record<string, unknown>) => createRecord(server.payload, collection, data)
  const layout = String((await fx.layout()).id)
  ids.component = await create('titles', { title: 'on an offline page' })
  const group = await create('component_groups', { reference: fx.unique('group') })
  await create('component_positions', {
    componentGroup: group,
    component: { relationTo: 'titles', value: ids.component },
  })
  ids.page = await create('pages', { reference: fx.unique('offline'), layout, componentGroups: [group] })
  ids.template = await create('pages', { reference: fx.unique('template'), layout, isTemplate: true })
  ids.article = await create('blog_article_datas', { title: 'Offline article', page: ids.template })
  await fx.route('/offline-page', { page: ids.page }, null)
  await fx.route('/offline-article', { pageData: { relationTo: 'blog_article_datas', value: ids.article } }, null)
  await fx.route('/live-page', { page: await create('pages', { reference: fx.unique('live'), layout }) })
  callers.anonymous = undefined
  callers.user = await server.tokenFor('ROLE_USER')
  callers.admin = await server.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

const get = (path: string, caller: string) => server.get(path, callers[caller] ? { token: callers[caller] } : {})

describe('without routable_security', () => {
  it.each(['anonymous', 'user', 'admin'])(
    '%s reads the page, page data and component behind a route that is not live (200)',
    async (caller) => {
      for (const path of [
        `/_api/_/pages/${ids.page}`,
        `/_api/page_data/blog_article_datas/${ids.article}`,
        `/_api/component/titles/${ids.component}`,
      ]) {
        expect([path, (await get(path, caller)).status]).toEqual([path, 200])
      }
    },
  )

  it.each([
    ['anonymous', 404],
    ['user', 404],
    ['admin', 200],
  ])('the route itself stays held to liveness: %s gets %s by path and on the manifest', async (caller, status) => {
    for (const path of [
      '/_api/_/routes//offline-page',
      '/_api/_/routes//offline-article',
      '/_api/_/resource_manifest//offline-page',
    ]) {
      expect([path, (await get(path, caller)).status]).toEqual([path, status])
    }
  })

  it.each([
    ['anonymous', ['/live-page']],
    ['user', ['/live-page']],
    ['admin', ['/live-page', '/offline-article', '/offline-page']],
  ])('GET /_/routes lists for %s only what it may see, with totalItems to match', async (caller, paths) => {
    const response = await get('/_api/_/routes?order[path]=asc', caller)
    expect(response.status).toBe(200)
    expect(response.body.member.map((m: { path: string }) => m.path)).toEqual(paths)
    expect(response.body.totalItems).toBe(paths.length)
  })

  it.each(['anonymous', 'user', 'admin'])('page and page data collections list every record for %s', async (caller) => {
    const pages = await get('/_api/_/pages?itemsPerPage=100', caller)
    expect(pages.body.member.map((m: { '@id': string }) => m['@id'])).toContain(`/_api/_/pages/${ids.page}`)
    const articles = await get('/_api/page_data/blog_article_datas', caller)
    expect(articles.body.member.map((m: { '@id': string }) => m['@id'])).toContain(
      `/_api/page_data/blog_article_datas/${ids.article}`,
    )
  })
})
