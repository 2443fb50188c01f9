import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { cookieHeader, loginSession } from '../support/sessionCookies'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'

/**
 * Issue 11: Payload's REST API under /api is part of the service and must
 * be as closed as /_api. Anonymous callers and plain users (ROLE_USER,
 * signed in with the JSON-LD session cookie) cannot create, update or
 * delete anything through it: every core collection, a component type, a
 * page data type, routes and other users. Each refusal is checked in the
 * database too (nothing created, changed or deleted).
 */

let server: TestServer
let userJwt: string
const ids: Record<string, string> = {}

beforeAll(async () => {
  server = await startTestServer()
  const payload = server.payload
  ids.component_groups = await createRecord(payload, 'component_groups', { reference: 'main', location: 'main' })
  ids.layouts = await createRecord(payload, 'layouts', { reference: 'layout', componentGroups: [ids.component_groups] })
  ids.pages = await createRecord(payload, 'pages', {
    reference: 'home',
    title: 'Home',
    layout: ids.layouts,
    componentGroups: [ids.component_groups],
  })
  ids.template = await createRecord(payload, 'pages', {
    reference: 'template',
    title: 'Template',
    layout: ids.layouts,
    isTemplate: true,
  })
  ids.html_contents = await createRecord(payload, 'html_contents', {
    html: '<p>x</p>',
    componentGroups: [ids.component_groups],
  })
  ids.component_positions = await createRecord(payload, 'component_positions', {
    componentGroup: ids.component_groups,
    component: { relationTo: 'html_contents', value: ids.html_contents },
  })
  ids.routes = await createRecord(payload, 'routes', { path: '/home', page: ids.pages })
  ids.blog_article_datas = await createRecord(payload, 'blog_article_datas', { title: 'Post', page: ids.template })
  ids.users = await server.createUser('someone-else', ['ROLE_ADMIN'])
  await server.createUser('plain', ['ROLE_USER'])
  userJwt = (await loginSession(server, 'plain')).jwt
})
afterAll(async () => {
  await server?.close()
})

/** A body that would be a valid write of each collection (so a refusal is the access rule's, not validation's). */
const bodies = (): Record<string, Record<string, unknown>> => ({
  component_groups: { reference: 'evil', location: 'evil' },
  layouts: { reference: 'evil-layout', componentGroups: [ids.component_groups] },
  pages: { reference: 'evil-page', title: 'Evil', layout: ids.layouts },
  component_positions: {
    componentGroup: ids.component_groups,
    component: { relationTo: 'html_contents', value: ids.html_contents },
    sortValue: 99,
  },
  routes: { path: '/evil', redirect: ids.routes },
  html_contents: { html: '<script>evil()</script>', componentGroups: [ids.component_groups] },
  blog_article_datas: { title: 'Evil', page: ids.template },
  users: { username: 'evil', email: 'evil@example.com', password: 'evil password 1', roles: ['ROLE_SUPER_ADMIN'] },
})

const tables: Record<string, string> = {
  component_groups: '_acb_component_groups',
  layouts: '_acb_layouts',
  pages: '_acb_pages',
  component_positions: '_acb_component_positions',
  routes: '_acb_routes',
  html_contents: '_acb_html_contents',
  blog_article_datas: '_acb_blog_article_datas',
  users: '_acb_users',
}

/**
 * The table's rows as text: compared before and after each refused write.
 * A user may edit their own account (PATCH of the own row, roles ignored):
 * for users, the other accounts and the roles of everyone are compared.
 */
const snapshot = async (collection: string) =>
  JSON.stringify(
    collection === 'users'
      ? [
          await server.sql(`SELECT * FROM _acb_users WHERE username <> 'plain' ORDER BY id`),
          await server.sql('SELECT parent_id, value FROM _acb_users_roles ORDER BY parent_id, value'),
        ]
      : await server.sql(`SELECT * FROM ${tables[collection]} ORDER BY id`),
  )

const callers: Array<[string, () => Record<string, string>]> = [
  ['anonymous', () => ({})],
  ['a plain user (ROLE_USER)', () => ({ cookie: cookieHeader({ jwt: userJwt }) })],
]

describe.each(callers)('writes through /api by %s', (_who, headersOf) => {
  const send = (method: string, path: string, body?: unknown) =>
    server.request(method, path, body, {
      contentType: 'application/json',
      headers: { accept: 'application/json', ...headersOf() },
    })

  it.each(Object.keys(tables))(
    'security: POST, PATCH and DELETE /api/%s are refused and change nothing (unauthorised write attack)',
    async (collection) => {
      const before = await snapshot(collection)
      const created = await send('POST', `/api/${collection}`, bodies()[collection])
      expect(created.status).toBe(403)
      const updated = await send('PATCH', `/api/${collection}/${ids[collection]}`, bodies()[collection])
      expect([403, 404]).toContain(updated.status)
      // Users: only a change of roles is sent to the bulk update (a user may change their own password and name).
      const bulkBody = collection === 'users' ? { roles: ['ROLE_SUPER_ADMIN'], enabled: true } : bodies()[collection]
      const bulkUpdated = await send('PATCH', `/api/${collection}?where[id][exists]=true`, bulkBody)
      const touched = ((bulkUpdated.body?.docs ?? []) as Array<{ username?: string }>).filter(
        (doc) => doc.username !== 'plain',
      )
      expect(bulkUpdated.status === 403 || touched.length === 0).toBe(true)
      const deleted = await send('DELETE', `/api/${collection}/${ids[collection]}`)
      expect([403, 404]).toContain(deleted.status)
      const bulkDeleted = await send('DELETE', `/api/${collection}?where[id][exists]=true`)
      expect(bulkDeleted.status === 403 || (bulkDeleted.body?.docs ?? []).length === 0).toBe(true)
      expect(await snapshot(collection)).toBe(before)
    },
  )
})

describe('control: the same writes by an admin go through', () => {
  it('an admin creates a layout through /api', async () => {
    await server.createUser('boss', ['ROLE_ADMIN'])
    const { jwt } = await loginSession(server, 'boss')
    const response = await server.request('POST', '/api/layouts', bodies().layouts, {
      contentType: 'application/json',
      headers: { accept: 'application/json', cookie: cookieHeader({ jwt }) },
    })
    expect(response.status).toBe(201)
  })
})
