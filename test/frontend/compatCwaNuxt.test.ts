import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'
import { formatFileSize } from '../../plugins/cwa/dist/features/compat/profile.js'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'

/**
 * The `compat: 'cwa-nuxt'` profile over real HTTP (profile on, and the
 * same requests with it off), on the demo site.
 */

const P = '/_api'
let on: TestServer
let off: TestServer
let bare: TestServer
let admin: string

beforeAll(async () => {
  on = await startTestServer({ options: { compat: 'cwa-nuxt' } })
  off = await startTestServer()
  bare = await startTestServer({ options: { compat: 'cwa-nuxt', compatIrisWithoutPrefix: true } })
  for (const server of [on, off, bare]) await seedDemo(server.payload, { apiPrefix: P })
  admin = await on.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await on?.close()
  await off?.close()
  await bare?.close()
})

describe('hydra: keys', () => {
  it('collections also carry hydra:member, hydra:totalItems and hydra:view with its links', async () => {
    const body = (await on.get(`${P}/_/routes`)).body
    expect(body['hydra:member']).toEqual(body.member)
    expect(body['hydra:totalItems']).toBe(body.totalItems)
    expect(body['hydra:view']).toMatchObject({
      '@type': 'hydra:PartialCollectionView',
      'hydra:first': body.view.first,
      'hydra:last': body.view.last,
    })
    const plain = (await off.get(`${P}/_/routes`)).body
    expect(plain).not.toHaveProperty('hydra:member')
    // A JSON-LD context names the keys without being a collection: left as it is.
    const context = (await on.get(`${P}/contexts/Route`)).body['@context']
    expect(context).not.toHaveProperty('hydra:member')
    expect(context.member).toMatchObject({ '@id': 'hydra:member' })
  })

  it("the Collection component's collection too (the module reads hydra:member and hydra:view.hydra:last)", async () => {
    const listing = (await on.get(`${P}/component/collections`)).body['hydra:member'][0]
    expect(listing.collection['hydra:member']).toHaveLength(2)
    expect(listing.collection['hydra:view']['hydra:last']).toBe(`${listing['@id']}?page=1`)
  })

  it('errors are hydra:Error with hydra:description; violations ConstraintViolationList', async () => {
    const error = (await on.post(`${P}/login`, { username: 'x', password: 'y' }, { contentType: 'application/json' }))
      .body
    expect(error).toMatchObject({
      '@type': 'hydra:Error',
      'hydra:title': 'Unauthorized',
      'hydra:description': 'Invalid credentials.',
      message: 'Invalid credentials.',
    })
    const violation = (await on.post(`${P}/component/titles`, {}, { token: admin })).body
    expect(violation['@type']).toBe('ConstraintViolationList')
    expect(violation['hydra:description']).toContain('title')
    expect(
      (await off.post(`${P}/login`, { username: 'x', password: 'y' }, { contentType: 'application/json' })).body[
        '@type'
      ],
    ).toBe('Error')
  })
})

describe('path-shaped route IRIs', () => {
  it("a route's @id is exactly the path requested, home included, everywhere it appears", async () => {
    const blog = (await on.get(`${P}/_/routes//blog`)).body
    expect(blog['@id']).toBe(`${P}/_/routes//blog`)
    expect((await on.get(`${P}/_/routes//`)).body['@id']).toBe(`${P}/_/routes//`)
    const page = (await on.get(blog.page)).body
    expect(page.route).toBe(`${P}/_/routes//blog`)
    const links = (await on.get(`${P}/component/navigation_links`)).body['hydra:member']
    expect(links.map((link: { route: string }) => link.route).sort()).toEqual([
      `${P}/_/routes//`,
      `${P}/_/routes//blog`,
      `${P}/_/routes//contact`,
    ])
    // Off: the UUID IRI of the contract.
    expect((await off.get(`${P}/_/routes//blog`)).body['@id']).toMatch(new RegExp(`^${P}/_/routes/[0-9a-f-]{36}$`))
  })

  it('accepts path-shaped route IRIs on input', async () => {
    const created = await on.post(
      `${P}/component/navigation_links`,
      { label: 'To the blog', route: `${P}/_/routes//blog` },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(created.body.route).toBe(`${P}/_/routes//blog`)
    const encoded = await on.post(
      `${P}/component/navigation_links`,
      { label: 'Home', route: '/_/routes/%2F' },
      { token: admin },
    )
    expect(encoded.body.route).toBe(`${P}/_/routes//`)
    const unknown = await on.post(
      `${P}/component/navigation_links`,
      { label: 'Nowhere', route: `${P}/_/routes//no-such-page` },
      { token: admin },
    )
    expect(unknown.status).toBe(422)
  })

  it('leaves the API prefix out of every IRI with compatIrisWithoutPrefix', async () => {
    const blog = (await bare.get(`${P}/_/routes//blog`)).body
    expect(blog['@id']).toBe('/_/routes//blog')
    expect(blog.page).toMatch(/^\/_\/pages\//)
    const listing = (await bare.get(`${P}/component/collections`)).body['hydra:member'][0]
    expect(listing.resourceIri).toBe('/page_data/blog_article_datas')
    expect(listing.collection['hydra:view']['hydra:first']).toBe(`${listing['@id']}?page=1`)
    expect(listing['@id']).toMatch(/^\/component\/collections\//)
  })
})

describe("a group's allowedComponents", () => {
  it('answer the strings as the module sends them (it writes the group again at every signed-in page load when they differ)', async () => {
    // What the module's group synchroniser sends (dev branch): the collection IRI without the API prefix.
    const sent = { allowedComponents: ['/component/navigation_links'] }
    const [group] = (await on.get(`${P}/_/component_groups`, { token: admin })).body['hydra:member']
    const written = await on.patch(group['@id'], sent, { token: admin })
    expect(written.status).toBe(200)
    expect(written.body.allowedComponents).toEqual(sent.allowedComponents)
    expect((await on.get(group['@id'], { token: admin })).body.allowedComponents).toEqual(sent.allowedComponents)
    // Without the profile, the contract's form: served like every @id.
    const offAdmin = await off.tokenFor('ROLE_ADMIN')
    const [plain] = (await off.get(`${P}/_/component_groups`, { token: offAdmin })).body.member
    const written2 = await off.patch(plain['@id'], sent, { token: offAdmin })
    expect(written2.body.allowedComponents).toEqual([`${P}/component/navigation_links`])
  })
})

describe("the entrypoint and a group's allowedComponents: one IRI form", () => {
  /** What the module's "Add component" dialog offers in a group: the entrypoint's components whose IRI is in the group's list. */
  async function offered(server: TestServer, prefix: string) {
    const token = await server.tokenFor('ROLE_ADMIN')
    const [group] = (await server.get(`${P}/_/component_groups`, { token })).body['hydra:member']
    await server.patch(`${prefix}${group['@id']}`, { allowedComponents: ['/component/navigation_links'] }, { token })
    const allowed: string[] = (await server.get(`${prefix}${group['@id']}`, { token })).body.allowedComponents
    const entrypoint = (await server.get(`${P}/`)).body
    return Object.entries(entrypoint)
      .filter(([key, value]) => !key.startsWith('@') && allowed.includes(value as string))
      .map(([key]) => key)
  }

  it('the dialog finds the navigation link in a group that allows it (dev: prefixed IRIs elsewhere)', async () => {
    expect(await offered(on, '')).toEqual(['navigationLink'])
    const entrypoint = (await on.get(`${P}/`)).body
    expect(entrypoint.navigationLink).toBe('/component/navigation_links')
    expect(entrypoint.page).toBe('/_/pages')
    // Its own @id and @context keep the prefix, as every other answer's.
    expect(entrypoint['@id']).toBe(P)
    expect(entrypoint['@context']).toBe(`${P}/contexts/Entrypoint`)
  })

  it('and with compatIrisWithoutPrefix (main)', async () => {
    expect(await offered(bare, P)).toEqual(['navigationLink'])
  })

  it('without the profile the entrypoint keeps the prefix', async () => {
    expect((await off.get(`${P}/`)).body.navigationLink).toBe(`${P}/component/navigation_links`)
  })
})

describe("the module's other endpoints", () => {
  it('/.jsonld answers as the entrypoint (404 with the profile off)', async () => {
    const entrypoint = await on.get(`${P}/.jsonld`)
    expect(entrypoint.status).toBe(200)
    expect(entrypoint.body).toEqual((await on.get(`${P}/`)).body)
    expect((await off.get(`${P}/.jsonld`)).status).toBe(404)
  })

  it('GET /logout logs out like POST', async () => {
    const username = 'compat_logout'
    await on.createUser(username)
    const login = await on.post(
      `${P}/login`,
      { username, password: 'correct horse battery staple' },
      { contentType: 'application/json' },
    )
    const cookies = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const out = await on.get(`${P}/logout`, { headers: { cookie: cookies } })
    expect(out.status).toBe(204)
    expect(out.headers.getSetCookie().some((c) => /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c))).toBe(true)
    expect((await off.get(`${P}/logout`)).status).toBe(405)
  })

  it('/_/routes_manifest/{path} answers a flat resource_iris: string[]', async () => {
    const flat = (await on.get(`${P}/_/routes_manifest//blog`)).body
    expect(Array.isArray(flat.resource_iris)).toBe(true)
    expect(flat.resource_iris.every((iri: unknown) => typeof iri === 'string')).toBe(true)
    expect(flat.resource_iris[0]).toBe(`${P}/_/routes//blog`)
    expect(flat.resource_iris.some((iri: string) => iri.startsWith(`${P}/component/collections/`))).toBe(true)
    expect(new Set(flat.resource_iris).size).toBe(flat.resource_iris.length)
  })

  it('GET {routeIri}/redirects lists the routes redirecting to it: redirectedRoutes, and redirectedFrom embedded as the module reads it', async () => {
    const blog = (await on.get(`${P}/_/routes//blog`, { token: admin })).body
    const redirect = await on.post(
      `${P}/_/routes`,
      { path: '/old-blog', redirect: `${P}/_/routes//blog` },
      { token: admin },
    )
    expect(redirect.status).toBe(201)
    const chained = await on.post(
      `${P}/_/routes`,
      { path: '/older-blog', redirect: `${P}/_/routes//old-blog` },
      { token: admin },
    )
    expect(chained.status).toBe(201)
    const response = await on.get(`${P}/_/routes//blog/redirects`, { token: admin })
    expect(response.status).toBe(200)
    expect(response.body['@id']).toBe(blog['@id'])
    expect(response.body.redirectedRoutes).toEqual([`${P}/_/routes//old-blog`])
    // The module's redirects tree (RouteRedirectsTree) shows each route's path and recurses into its redirectedFrom.
    expect(response.body.redirectedFrom).toEqual([
      {
        '@id': `${P}/_/routes//old-blog`,
        '@type': 'Route',
        path: '/old-blog',
        redirectedFrom: [
          { '@id': `${P}/_/routes//older-blog`, '@type': 'Route', path: '/older-blog', redirectedFrom: [] },
        ],
      },
    ])
    // Prefix-less IRIs with compatIrisWithoutPrefix.
    const bareAdmin = await bare.tokenFor('ROLE_ADMIN')
    expect(
      (await bare.post(`${P}/_/routes`, { path: '/old-blog', redirect: '/_/routes//blog' }, { token: bareAdmin }))
        .status,
    ).toBe(201)
    expect((await bare.get(`${P}/_/routes//blog/redirects`, { token: bareAdmin })).body.redirectedFrom).toEqual([
      { '@id': '/_/routes//old-blog', '@type': 'Route', path: '/old-blog', redirectedFrom: [] },
    ])
    // The tree's bin: DELETE of the redirect's @id as served (path-shaped), 204; the list follows.
    // (`?published=true` when the module holds it as a resource of its own: resources-manager.ts getEndpointForIri.)
    expect((await on.delete(`${P}/_/routes//older-blog?published=true`, { token: admin })).status).toBe(204)
    expect(
      (await on.get(`${P}/_/routes//blog/redirects`, { token: admin })).body.redirectedFrom[0].redirectedFrom,
    ).toEqual([])
    expect((await on.delete(`${P}/_/routes/%2Fno-such-route`, { token: admin })).status).toBe(404)
    // Deleting by path takes the same permission as by id (attack: an anonymous caller removing a redirect).
    expect((await on.delete(`${P}/_/routes//old-blog`)).status).toBe(401)
    expect((await on.get(`${P}/_/routes//old-blog`)).status).toBe(200)
    await on.delete(`${P}/_/routes//old-blog`, { token: admin })
    // By id, as without the profile.
    const byId = await on.post(`${P}/_/routes`, { path: '/by-id', redirect: `${P}/_/routes//blog` }, { token: admin })
    const uuid = (await on.sql(`SELECT id FROM _acb_routes WHERE path = '/by-id'`))[0].id
    expect(byId.status).toBe(201)
    expect((await on.delete(`${P}/_/routes/${uuid}`, { token: admin })).status).toBe(204)
    expect((await on.get(`${P}/_/routes//by-id`, { token: admin })).status).toBe(404)
    // Neither a path nor an id: 404, as without the profile (never a loop through this endpoint).
    expect((await on.delete(`${P}/_/routes/not-a-route`, { token: admin })).status).toBe(404)
  })

  it('without the profile: no /redirects, no DELETE by path, and the route answers as the contract writes it (no redirectedFrom)', async () => {
    const offAdmin = await off.tokenFor('ROLE_ADMIN')
    const blog = (await off.get(`${P}/_/routes//blog`, { token: offAdmin })).body['@id']
    expect(
      (await off.post(`${P}/_/routes`, { path: '/old-blog-off', redirect: blog }, { token: offAdmin })).status,
    ).toBe(201)
    const route = await off.get(`${P}/_/routes//blog`, { token: offAdmin })
    expect(route.body).not.toHaveProperty('redirectedFrom')
    expect(route.body.redirectedRoutes).toEqual([expect.stringMatching(new RegExp(`^${P}/_/routes/[0-9a-f-]{36}$`))])
    expect((await off.get(`${P}/_/routes//blog/redirects`, { token: offAdmin })).status).toBe(404)
    expect([404, 405]).toContain((await off.delete(`${P}/_/routes//old-blog-off`, { token: offAdmin })).status)
  })
})

describe('renaming a route in the module', () => {
  it("the module's PATCH (the whole route it holds, name = path) answers 200, and the old path redirects to the new one", async () => {
    const created = await on.post(
      `${P}/_/routes`,
      { path: '/module-page', page: (await on.get(`${P}/_/routes//contact`)).body.page },
      { token: admin },
    )
    // The contact page already has a route: give the new route a page of its own.
    expect(created.status).toBe(422)
    const layout = (await on.get(`${P}/_/layouts`)).body['hydra:member'][0]['@id']
    const page = await on.post(
      `${P}/_/pages`,
      { reference: 'module-page', title: 'Module page', layout, uiComponent: 'PrimaryPageTemplate' },
      { token: admin },
    )
    const route = await on.post(
      `${P}/_/routes`,
      { name: '/module-page', path: '/module-page', page: page.body['@id'] },
      { token: admin },
    )
    expect(route.status).toBe(201)
    const held = (await on.get(`${route.body['@id']}/redirects`, { token: admin })).body
    const { redirectedFrom: _excluded, ...sent } = held
    const renamed = await on.patch(
      route.body['@id'],
      { ...sent, path: '/module-page-2', name: '/module-page-2' },
      { token: admin },
    )
    expect(renamed.status).toBe(200)
    expect(renamed.body['@id']).toBe(`${P}/_/routes//module-page-2`)
    expect(renamed.body.redirectedRoutes).toEqual([`${P}/_/routes//module-page`])
    expect((await on.get(`${P}/_/routes//module-page`)).body).toMatchObject({
      path: '/module-page',
      redirectPath: '/module-page-2',
    })
    expect((await on.get(`${P}/_/routes//module-page-2/redirects`, { token: admin })).body.redirectedFrom).toEqual([
      { '@id': `${P}/_/routes//module-page`, '@type': 'Route', path: '/module-page', redirectedFrom: [] },
    ])
  })
})

describe("associatedResources on routes (the module's route list)", () => {
  it('names what each route leads to, for admins only', async () => {
    await on.post(`${P}/_/routes`, { path: '/blog-old', redirect: `${P}/_/routes//blog` }, { token: admin })
    const members = (await on.get(`${P}/_/routes?itemsPerPage=100`, { token: admin })).body['hydra:member']
    const byPath = Object.fromEntries(
      members.map((m: { path: string; associatedResources: unknown }) => [m.path, m.associatedResources]),
    )
    expect(byPath['/blog']).toEqual({ page: 'Blog' })
    expect(byPath['/blog/first-article']).toEqual({ pageData: 'First article', pageDataType: 'BlogArticleData' })
    expect(byPath['/blog-old']).toEqual({ redirect: '/blog' })
    const anonymous = (await on.get(`${P}/_/routes`)).body['hydra:member']
    expect(anonymous.some((m: object) => 'associatedResources' in m)).toBe(false)
    const offAdmin = await off.tokenFor('ROLE_ADMIN')
    expect(
      (await off.get(`${P}/_/routes`, { token: offAdmin })).body.member.some((m: object) => 'associatedResources' in m),
    ).toBe(false)
  })
})

describe('collection filters on item requests', () => {
  it('are ignored in the profile (the module forwards ?search= on every item GET); rule 4 stays the default', async () => {
    const article = (await on.get(`${P}/page_data/blog_article_datas`)).body['hydra:member'][0]['@id']
    expect((await on.get(`${article}?search=no-such-thing`)).status).toBe(200)
    const plainArticle = (await off.get(`${P}/page_data/blog_article_datas`)).body.member[0]['@id']
    expect((await off.get(`${plainArticle}?search=no-such-thing`)).status).toBe(404)
  })

  it('still never show drafts (attack: ?published=false as an anonymous caller)', async () => {
    const template = (await on.get(`${P}/_/pages?search=blog_article_template`, { token: admin })).body[
      'hydra:member'
    ][0]['@id']
    const draft = await on.post(
      `${P}/page_data/news_article_datas`,
      { title: 'Secret', summary: 's', page: template },
      { token: admin },
    )
    expect((await on.get(`${draft.body['@id']}?search=Secret&published=false`)).status).toBe(404)
  })
})

describe("the demo seed follows the module's conventions with the profile on", () => {
  it("layout and page templates are the module's names; a group reference is {reference}_{owner IRI as served}", async () => {
    const layout = (await on.get(`${P}/_/layouts`)).body['hydra:member'][0]
    expect(layout.uiComponent).toBe('CwaLayoutPrimary')
    const groups = await Promise.all(
      layout.componentGroups.map(async (iri: string) => (await on.get(iri, { token: admin })).body.reference),
    )
    expect(groups.sort()).toEqual([`bottom_${layout['@id']}`, `top_${layout['@id']}`])
    const home = (await on.get((await on.get(`${P}/_/routes//`)).body.page)).body
    // As the module's page form stores it (the component name without its CwaPage prefix), like a page made there.
    expect(home.uiComponent).toBe('PrimaryPageTemplate')
    expect((await on.get(home.componentGroups[0], { token: admin })).body.reference).toBe(`primary_${home['@id']}`)
  })

  it('names the owner by the IRI as served (no prefix with compatIrisWithoutPrefix), and keeps the plain names without the profile', async () => {
    const layout = (await bare.get(`${P}/_/layouts`)).body['hydra:member'][0]
    expect(layout['@id']).toMatch(/^\/_\/layouts\//)
    const references = await Promise.all(
      layout.componentGroups.map(async (iri: string) => (await bare.get(`${P}${iri}`)).body.reference),
    )
    expect(references).toContain(`top_${layout['@id']}`)
    const plain = (await off.get(`${P}/_/layouts`)).body.member[0]
    expect(plain.uiComponent).toBe('PrimaryLayout')
    expect((await off.get(plain.componentGroups[0])).body.reference).toBe('primary_top')
  })
})

describe("a media object's formattedFileSize (the original bundle's form)", () => {
  it('is 1000-based with SI suffixes and two decimals, bytes as they are', () => {
    expect([0, 999, 1000, 1234, 158_000, 1_440_000, 2_500_000_000].map(formatFileSize)).toEqual([
      '0B',
      '999B',
      '1.00kB',
      '1.23kB',
      '158.00kB',
      '1.44MB',
      '2.50GB',
    ])
  })
})

describe("the module's group and order writes (issue 41)", () => {
  it.each([
    ['the profile', () => on, P],
    ['the profile without the prefix', () => bare, ''],
  ])(
    "%s: a new page's group posted as the module posts it belongs to the page, posted again is a 409 naming it; a move up shifts the holder",
    async (_name, server, prefix) => {
      const token = await server().tokenFor('ROLE_ADMIN')
      const layout = (await server().get(`${P}/_/layouts`)).body['hydra:member'][0]['@id']
      const page = (
        await server().post(`${P}/_/pages`, { reference: `module-${prefix.length}`, title: 'New', layout }, { token })
      ).body['@id']
      expect(page.startsWith(`${prefix}/_/pages/`)).toBe(true)
      const body = { reference: `primary_${page}`, location: page, allowedComponents: null, pages: [page] }
      const group = await server().post(`${P}/_/component_groups`, body, { token })
      expect(group.status).toBe(201)
      expect((await server().get(`${P}${page.slice(prefix.length)}`, { token })).body.componentGroups).toEqual([
        group.body['@id'],
      ])
      const again = await server().post(`${P}/_/component_groups`, body, { token })
      expect(again.status).toBe(409)
      expect(again.body['hydra:description']).toContain(group.body['@id'])

      const positions: string[] = []
      for (const sortValue of [0, 1, 2]) {
        const created = await server().post(
          `${P}/_/component_positions`,
          { componentGroup: group.body['@id'], sortValue },
          { token },
        )
        positions.push(created.body['@id'])
      }
      const moved = await server().patch(`${P}${positions[2]!.slice(prefix.length)}`, { sortValue: 1 }, { token })
      expect(moved.status).toBe(200)
      const listed = (await server().get(`${P}${group.body['@id'].slice(prefix.length)}`, { token })).body
      expect(listed.componentPositions).toEqual([positions[0], positions[2], positions[1]])
    },
  )
})

describe("the module's groups made before groups took their owner (issue 41)", () => {
  it.each([
    ['the profile', () => on, P],
    ['the profile without the prefix', () => bare, ''],
  ])(
    "%s: the module's next POST for an owner-less group adopts it (200, the group), its page lists it",
    async (_name, server, prefix) => {
      const token = await server().tokenFor('ROLE_ADMIN')
      const layout = (await server().get(`${P}/_/layouts`)).body['hydra:member'][0]['@id']
      const page = (
        await server().post(`${P}/_/pages`, { reference: `adopt-${prefix.length}`, title: 'Old', layout }, { token })
      ).body['@id']
      const body = { reference: `primary_${page}`, location: page, allowedComponents: null }
      // What the API stored before the fix: the group, without its owner.
      const made = await server().post(`${P}/_/component_groups`, body, { token })
      expect(made.status).toBe(201)
      const adopted = await server().post(`${P}/_/component_groups`, { ...body, pages: [page] }, { token })
      expect(adopted.status).toBe(200)
      expect(adopted.body['@id']).toBe(made.body['@id'])
      expect((await server().get(`${P}${page.slice(prefix.length)}`, { token })).body.componentGroups).toEqual([
        made.body['@id'],
      ])
    },
  )
})

describe('the option', () => {
  it('is refused when unknown or half-set', () => {
    expect(() => resolveOptions({ compat: 'other' as never })).toThrow(/compat/)
    expect(() => resolveOptions({ compatIrisWithoutPrefix: true })).toThrow(/compat/)
    expect(resolveOptions({}).compat).toBeNull()
  })
})
