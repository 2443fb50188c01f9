import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'
import { group, layout, page, position, ref, surviving, title } from '../support/componentTree'

/**
 * Issue 16, the page builder's endpoints (admin only): the view of a page,
 * layout or page data with titles and types in order; reordering in one
 * transaction (bad lists refused with nothing written, concurrent reorders
 * serialized); appending a component with the group's rules; adding a group;
 * removing a position, with its component only when used nowhere else.
 */

let server: TestServer
let admin: string
let user: string

const P = '/_api'
const iri = (path: string, id: string) => `${P}${path}/${id}`
const GROUP = (id: string) => iri('/_/component_groups', id)
const POSITION = (id: string) => iri('/_/component_positions', id)
const TITLE = (id: string) => iri('/component/titles', id)

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
})
afterAll(async () => {
  await server?.close()
})

/** A page in a layout, each with a group; the page's group holds titles A, B, C in that order. */
async function builtPage() {
  const p = server.payload
  const header = await group(p)
  const lay = await layout(p, [header])
  const main = await group(p)
  const pg = await page(p, lay, [main])
  const titles = [await title(p), await title(p), await title(p)]
  const positions = []
  for (const [index, t] of titles.entries())
    positions.push(await position(p, main, { slug: 'titles', id: t }, { sortValue: index * 10 }))
  return { header, layout: lay, main, page: pg, titles, positions }
}

const sortValues = async (ids: string[]) =>
  new Map(
    (
      await server.sql(`SELECT id::text, sort_value FROM _acb_component_positions WHERE id = ANY($1::uuid[])`, [ids])
    ).map((r: { id: string; sort_value: number }) => [r.id, Number(r.sort_value)]),
  )

describe('GET /_/page_builder', () => {
  it('shows the layout and the page with each group in order, components by title and type', async () => {
    const built = await builtPage()
    const response = await server.get(`${P}/_/page_builder?iri=${encodeURIComponent(iri('/_/pages', built.page))}`, {
      token: admin,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const body = response.body
    expect((await server.get(body['@context'])).status).toBe(200)
    expect(body.layout['@id']).toBe(iri('/_/layouts', built.layout))
    expect(body.layout.groups.map((g: { '@id': string }) => g['@id'])).toEqual([GROUP(built.header)])
    const main = body.page.groups[0]
    expect(main['@id']).toBe(GROUP(built.main))
    expect(main.positions.map((p: { component: { '@id': string } }) => p.component['@id'])).toEqual(
      built.titles.map(TITLE),
    )
    expect(main.positions[0].component.type).toBe('Title')
    // The type in words with its icon (the demo's Title declares adminIcon 'heading').
    expect(main.positions[0].component).toMatchObject({ label: 'Heading', icon: 'heading' })
    const stored = await server.payload.findByID({ collection: 'titles' as never, id: built.titles[0]!, depth: 0 })
    expect(main.positions[0].component.title).toBe((stored as unknown as { title: string }).title)
    // No allowedComponents: every type but the explicit-allow-only FileDownload is offered.
    const offered = main.addable.map((t: { type: string }) => t.type)
    expect(offered).toEqual(expect.arrayContaining(['Title', 'HtmlContent', 'NavigationLink', 'Image']))
    expect(offered).not.toContain('FileDownload')
    const icons = Object.fromEntries(main.addable.map((t: { type: string; icon: string }) => [t.type, t.icon]))
    expect(icons).toMatchObject({ HtmlContent: 'text', NavigationLink: 'link', Image: 'image', Title: 'heading' })
  })

  it('offers only the types a group allows, explicit-allow-only ones included when named', async () => {
    const p = server.payload
    const allowed = await server.payload.create({
      collection: 'component_groups' as never,
      data: {
        reference: ref('g'),
        location: 'main',
        allowedComponents: [`${P}/component/file_downloads`, `${P}/component/titles`],
      } as never,
    })
    const lay = await layout(p)
    const pg = await page(p, lay, [String((allowed as { id: string }).id)])
    const body = (
      await server.get(`${P}/_/page_builder?iri=${encodeURIComponent(iri('/_/pages', pg))}`, { token: admin })
    ).body
    expect(body.page.groups[0].addable.map((t: { type: string }) => t.type).sort()).toEqual(['FileDownload', 'Title'])
  })

  it('on page data, shows the template page and what a dynamic position resolves to', async () => {
    const p = server.payload
    const lay = await layout(p)
    const main = await group(p)
    const template = await page(p, lay, [main], { isTemplate: true })
    const dynamic = await position(p, main, undefined, {
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
    const html = (await p.create({
      collection: 'html_contents' as never,
      data: { html: '<p>Hello <b>page</b> data world</p>' } as never,
    })) as { id: string }
    const data = (await p.create({
      collection: 'blog_article_datas' as never,
      data: { title: 'An article', page: template, htmlContent: html.id } as never,
    })) as { id: string }
    const response = await server.get(
      `${P}/_/page_builder?iri=${encodeURIComponent(iri('/page_data/blog_article_datas', data.id))}`,
      { token: admin },
    )
    expect(response.status).toBe(200)
    const shown = response.body.page.groups[0].positions[0]
    expect(shown['@id']).toBe(POSITION(dynamic))
    expect(shown).toMatchObject({ pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent', component: null })
    expect(shown.resolvesTo).toMatchObject({
      '@id': iri('/component/html_contents', html.id),
      type: 'HtmlContent',
      title: 'Hello page data world',
      // Not one of the page's blocks (the record's own value), its type still says edits make drafts.
      drafts: true,
    })
  })

  it('is admin only, and refuses a missing or foreign IRI with a 4xx', async () => {
    const built = await builtPage()
    const url = `${P}/_/page_builder?iri=${encodeURIComponent(iri('/_/pages', built.page))}`
    expect((await server.get(url)).status).toBe(401)
    expect((await server.get(url, { token: user })).status).toBe(403)
    expect((await server.get(`${P}/_/page_builder`, { token: admin })).status).toBe(422)
    expect(
      (await server.get(`${P}/_/page_builder?iri=${encodeURIComponent(TITLE(built.titles[0]!))}`, { token: admin }))
        .status,
    ).toBe(422)
    expect(
      (
        await server.get(
          `${P}/_/page_builder?iri=${encodeURIComponent(iri('/_/pages', '00000000-0000-4000-8000-000000000000'))}`,
          { token: admin },
        )
      ).status,
    ).toBe(404)
  })
})

describe('POST /_/page_builder/reorder', () => {
  it('writes sortValue 0, 1, 2 in the new order, and the JSON-LD API serves that order', async () => {
    const built = await builtPage()
    const [a, b, c] = built.positions as [string, string, string]
    const response = await server.post(
      `${P}/_/page_builder/reorder`,
      { componentGroup: GROUP(built.main), positions: [c, a, b].map(POSITION) },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.body.positions).toEqual([
      { '@id': POSITION(c), sortValue: 0 },
      { '@id': POSITION(a), sortValue: 1 },
      { '@id': POSITION(b), sortValue: 2 },
    ])
    const stored = await sortValues([a, b, c])
    expect([stored.get(c), stored.get(a), stored.get(b)]).toEqual([0, 1, 2])
    const view = (
      await server.get(`${P}/_/page_builder?iri=${encodeURIComponent(iri('/_/pages', built.page))}`, { token: admin })
    ).body
    expect(view.page.groups[0].positions.map((p: { '@id': string }) => p['@id'])).toEqual([c, a, b].map(POSITION))
  })

  it("refuses a list that is not the group's positions (missing, foreign, duplicate, not IRIs) and writes nothing", async () => {
    const built = await builtPage()
    const other = await builtPage()
    const [a, b, c] = built.positions as [string, string, string]
    const before = await sortValues([a, b, c])
    const post = (body: unknown) => server.post(`${P}/_/page_builder/reorder`, body, { token: admin })
    expect((await post({ componentGroup: GROUP(built.main), positions: [b, a].map(POSITION) })).status).toBe(409)
    expect(
      (await post({ componentGroup: GROUP(built.main), positions: [b, a, other.positions[0]!].map(POSITION) })).status,
    ).toBe(409)
    expect((await post({ componentGroup: GROUP(built.main), positions: [b, a, a].map(POSITION) })).status).toBe(422)
    expect((await post({ componentGroup: GROUP(built.main), positions: [] })).status).toBe(422)
    expect((await post({ componentGroup: GROUP(built.main), positions: ['nonsense', 3] })).status).toBe(422)
    expect((await post({ componentGroup: TITLE(built.titles[0]!), positions: [a].map(POSITION) })).status).toBe(422)
    expect((await post({ positions: [a].map(POSITION) })).status).toBe(422)
    expect((await post([1, 2])).status).toBe(422)
    expect(
      (await post({ componentGroup: GROUP('00000000-0000-4000-8000-000000000000'), positions: [a].map(POSITION) }))
        .status,
    ).toBe(404)
    expect(await sortValues([a, b, c])).toEqual(before)
  })

  it('is admin only', async () => {
    const built = await builtPage()
    const body = { componentGroup: GROUP(built.main), positions: [...built.positions].reverse().map(POSITION) }
    expect((await server.post(`${P}/_/page_builder/reorder`, body)).status).toBe(401)
    expect((await server.post(`${P}/_/page_builder/reorder`, body, { token: user })).status).toBe(403)
  })

  it('runs concurrent reorders of one group one after the other: the result is one of them, whole', async () => {
    const built = await builtPage()
    const [a, b, c] = built.positions as [string, string, string]
    const orders = [
      [c, b, a],
      [b, c, a],
      [a, c, b],
      [c, a, b],
    ]
    const answers = await Promise.all(
      orders.map((order) =>
        server.post(
          `${P}/_/page_builder/reorder`,
          { componentGroup: GROUP(built.main), positions: order.map(POSITION) },
          { token: admin },
        ),
      ),
    )
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const stored = await sortValues([a, b, c])
    const final = [a, b, c].sort((x, y) => stored.get(x)! - stored.get(y)!)
    expect(orders).toContainEqual(final)
    expect([...stored.values()].sort()).toEqual([0, 1, 2])
  })
})

describe('POST /_/page_builder/positions, /groups, /remove', () => {
  it('appends a component after the last position', async () => {
    const built = await builtPage()
    const t = await title(server.payload)
    const response = await server.post(
      `${P}/_/page_builder/positions`,
      { componentGroup: GROUP(built.main), component: TITLE(t) },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body.sortValue).toBe(21)
    const view = (
      await server.get(`${P}/_/page_builder?iri=${encodeURIComponent(iri('/_/pages', built.page))}`, { token: admin })
    ).body
    expect(view.page.groups[0].positions.at(-1).component['@id']).toBe(TITLE(t))
  })

  it('refuses a type the group does not allow (explicit-allow-only) with a 422, writing nothing', async () => {
    const built = await builtPage()
    const download = (await server.payload.create({ collection: 'file_downloads' as never, data: {} as never })) as {
      id: string
    }
    const count = async () =>
      (
        await server.sql(`SELECT count(*)::int AS n FROM _acb_component_positions WHERE component_group_id = $1`, [
          built.main,
        ])
      )[0].n
    const response = await server.post(
      `${P}/_/page_builder/positions`,
      { componentGroup: GROUP(built.main), component: iri('/component/file_downloads', download.id) },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(JSON.stringify(response.body)).toContain('FileDownload can only be added to groups that name it')
    expect(await count()).toBe(3)
    expect(
      (
        await server.post(
          `${P}/_/page_builder/positions`,
          { componentGroup: GROUP(built.main), component: TITLE('00000000-0000-4000-8000-000000000000') },
          { token: admin },
        )
      ).status,
    ).toBe(422)
    expect(
      (await server.post(`${P}/_/page_builder/positions`, { componentGroup: GROUP(built.main) }, { token: admin }))
        .status,
    ).toBe(422)
  })

  it('adds a group to a page, and refuses a second group at the same location', async () => {
    const built = await builtPage()
    const response = await server.post(
      `${P}/_/page_builder/groups`,
      { owner: iri('/_/pages', built.page), location: 'sidebar' },
      { token: admin },
    )
    expect(response.status).toBe(201)
    const stored = (await server.payload.findByID({
      collection: 'pages' as never,
      id: built.page,
      depth: 0,
    })) as unknown as { reference: string; componentGroups: string[] }
    expect(stored.componentGroups).toEqual([built.main, response.body['@id'].split('/').pop()])
    expect(response.body.reference).toBe(`${stored.reference}_sidebar`)
    expect(
      (
        await server.post(
          `${P}/_/page_builder/groups`,
          { owner: iri('/_/pages', built.page), location: 'sidebar' },
          { token: admin },
        )
      ).status,
    ).toBe(422)
    expect(
      (
        await server.post(
          `${P}/_/page_builder/groups`,
          { owner: iri('/_/pages', built.page), location: '../x' },
          { token: admin },
        )
      ).status,
    ).toBe(422)
    expect(
      (await server.post(`${P}/_/page_builder/groups`, { owner: GROUP(built.main), location: 'x' }, { token: admin }))
        .status,
    ).toBe(422)
  })

  it('removes a position with its component when it was its only use, and keeps a component used elsewhere', async () => {
    const built = await builtPage()
    const [a, b] = built.positions as [string, string, string]
    const [ta, tb] = built.titles as [string, string, string]
    const elsewhere = await group(server.payload)
    await position(server.payload, elsewhere, { slug: 'titles', id: tb })
    const first = await server.post(`${P}/_/page_builder/remove`, { position: POSITION(a) }, { token: admin })
    expect(first.status).toBe(200)
    expect(first.body.deleted.sort()).toEqual([POSITION(a), TITLE(ta)].sort())
    expect(await surviving(server, '_acb_titles', [ta])).toEqual([])
    const second = await server.post(`${P}/_/page_builder/remove`, { position: POSITION(b) }, { token: admin })
    expect(second.body.deleted).toEqual([POSITION(b)])
    expect(await surviving(server, '_acb_titles', [tb])).toEqual([tb])
    expect((await server.post(`${P}/_/page_builder/remove`, { position: POSITION(b) }, { token: admin })).status).toBe(
      404,
    )
    expect((await server.post(`${P}/_/page_builder/remove`, { position: 'x' }, { token: admin })).status).toBe(422)
  })
})

describe('page builder writes refuse malformed bodies', () => {
  it('answers invalid JSON, non-object bodies and wrong types with a 4xx on every write endpoint, writing nothing', async () => {
    const built = await builtPage()
    const rows = async () =>
      (
        await server.sql(
          `SELECT (SELECT count(*) FROM _acb_component_positions)::int AS p, (SELECT count(*) FROM _acb_component_groups)::int AS g, (SELECT string_agg(sort_value::text, ',' ORDER BY id) FROM _acb_component_positions) AS s`,
        )
      )[0]
    const before = await rows()
    const bodies: unknown[] = [
      [],
      'text',
      42,
      null,
      { group: 5 },
      { componentGroup: ['x'], component: {} },
      { owner: 7, location: { a: 1 } },
      { position: 12 },
      { group: GROUP(built.main), positions: 'all' },
      { group: GROUP(built.main), positions: [1, 2] },
    ]
    for (const endpoint of ['reorder', 'positions', 'groups', 'remove']) {
      const invalid = await server.request('POST', `${P}/_/page_builder/${endpoint}`, undefined, {
        token: admin,
        raw: '{"not json',
        contentType: 'application/ld+json',
      })
      expect({ endpoint, status: invalid.status }).toEqual({ endpoint, status: 400 })
      for (const body of bodies) {
        const response = await server.post(`${P}/_/page_builder/${endpoint}`, body, { token: admin })
        expect({ endpoint, body, status: response.status >= 400 && response.status < 500 }).toEqual({
          endpoint,
          body,
          status: true,
        })
      }
    }
    expect(await rows()).toEqual(before)
  })
})

describe('signing in to the admin opens the API session the views use', () => {
  const setCookies = (headers: Headers) => headers.getSetCookie().map((c) => c.split('=')[0])
  const refreshTokens = async () =>
    Number((await server.sql(`SELECT count(*)::int AS n FROM _acb_refresh_tokens`))[0].n)

  it("Payload's login (the admin's form) sets the API's JWT and refresh cookies beside payload-token; the API accepts them", async () => {
    await server.createUser('builder_editor', ['ROLE_ADMIN'])
    const before = await refreshTokens()
    const response = await fetch(`${server.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ username: 'builder_editor', password: PASSWORD }),
    })
    expect(response.status).toBe(200)
    const names = setCookies(response.headers)
    expect(names).toEqual(expect.arrayContaining(['payload-token', 'api_component', 'api_component_refresh']))
    expect(await refreshTokens()).toBe(before + 1)
    const jwt = response.headers
      .getSetCookie()
      .find((c) => c.startsWith('api_component='))!
      .split(';')[0]
    const me = await server.get(`${P}/_/page_builder?iri=x`, { headers: { cookie: jwt } })
    expect(me.status).toBe(422) // signed in as an admin: past the 401/403, refused for the bad IRI
  })

  it("the API's own login sets its cookies once (the admin hook leaves it alone)", async () => {
    const before = await refreshTokens()
    const response = await fetch(`${server.url}${P}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'builder_editor', password: PASSWORD }),
    })
    expect(response.status).toBe(204)
    expect(setCookies(response.headers).sort()).toEqual(['api_component', 'api_component_refresh'])
    expect(await refreshTokens()).toBe(before + 1)
  })

  it('a refused admin login sets no API cookie', async () => {
    const response = await fetch(`${server.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ username: 'builder_editor', password: 'wrong password here' }),
    })
    expect(response.status).toBe(401)
    expect(setCookies(response.headers)).not.toContain('api_component')
  })
})
