import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { cookieHeader, loginSession } from '../support/sessionCookies'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'
import { exists, group, layout, page, position, surviving, title } from '../support/componentTree'

/**
 * Issue 13, delete cascades (contract: orphan delete rule 5, "An API DELETE
 * of a group, page, layout or page data cascades the same way"), on every
 * API: the JSON-LD API (/_api), Payload's REST API (/api, which the admin
 * panel uses with the same session cookie) and the Local API. A required
 * reference left dangling is a 422 naming what still uses the record, and
 * nothing is deleted.
 */

let server: TestServer
let admin: string
let adminCookie: string

const HTML = '_acb_html_contents'
const TITLES = '_acb_titles'
const GROUPS = '_acb_component_groups'
const POSITIONS = '_acb_component_positions'

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  await server.createUser('cascade_admin', ['ROLE_ADMIN'])
  adminCookie = cookieHeader({ jwt: (await loginSession(server, 'cascade_admin')).jwt })
})
afterAll(async () => {
  await server?.close()
})

type Api = 'jsonld' | 'rest' | 'local'
const IRI: Record<string, string> = {
  component_groups: '/_api/_/component_groups',
  pages: '/_api/_/pages',
  layouts: '/_api/_/layouts',
  titles: '/_api/component/titles',
  html_contents: '/_api/component/html_contents',
  blog_article_datas: '/_api/page_data/blog_article_datas',
}

/** DELETE through one API; returns the HTTP status (Local API: 204 on success, the error's status otherwise). */
async function remove(api: Api, collection: string, id: string): Promise<{ status: number; body: any }> {
  if (api === 'jsonld') {
    const response = await server.delete(`${IRI[collection]}/${id}`, { token: admin })
    return { status: response.status, body: response.body }
  }
  if (api === 'rest') {
    const response = await server.request('DELETE', `/api/${collection}/${id}`, undefined, {
      headers: { accept: 'application/json', cookie: adminCookie },
    })
    return { status: response.status, body: response.body }
  }
  try {
    await server.payload.delete({ collection: collection as never, id, depth: 0 })
    return { status: 204, body: null }
  } catch (error) {
    return { status: (error as { status?: number }).status ?? 500, body: (error as { data?: unknown }).data }
  }
}

const APIS: Api[] = ['jsonld', 'rest', 'local']

/**
 * page -> group G -> positions: title A (owns group N -> position -> title C),
 * title S (shared: also placed in another page's group), an empty position.
 */
async function pageTree() {
  const p = server.payload
  const nested = await group(p)
  const c = await title(p)
  const nestedPosition = await position(p, nested, { slug: 'titles', id: c })
  const a = await title(p, [nested])
  const s = await title(p)
  const g = await group(p)
  const pa = await position(p, g, { slug: 'titles', id: a })
  const ps = await position(p, g, { slug: 'titles', id: s })
  const empty = await position(p, g)
  const otherGroup = await group(p)
  const otherPosition = await position(p, otherGroup, { slug: 'titles', id: s })
  const l = await layout(p)
  const pg = await page(p, l, [g])
  await page(p, l, [otherGroup])
  return { g, nested, c, nestedPosition, a, s, pa, ps, empty, otherGroup, otherPosition, layout: l, page: pg }
}

describe.each(APIS)('cascade on the %s API', (api) => {
  it('a group takes its positions and the components used nowhere else, recursively; a shared component and its position elsewhere stay', async () => {
    const t = await pageTree()
    const { status } = await remove(api, 'component_groups', t.g)
    expect(status === 204 || status === 200).toBe(true)
    expect(await surviving(server, GROUPS, [t.g, t.nested, t.otherGroup])).toEqual([t.otherGroup])
    expect(await surviving(server, POSITIONS, [t.pa, t.ps, t.empty, t.nestedPosition, t.otherPosition])).toEqual([
      t.otherPosition,
    ])
    expect(await surviving(server, TITLES, [t.a, t.c, t.s])).toEqual([t.s])
  })

  it('a page takes its groups the same way (the page of the shared component keeps it)', async () => {
    const t = await pageTree()
    const { status } = await remove(api, 'pages', t.page)
    expect(status === 204 || status === 200).toBe(true)
    expect(await exists(server, '_acb_pages', t.page)).toBe(false)
    expect(await surviving(server, GROUPS, [t.g, t.nested, t.otherGroup])).toEqual([t.otherGroup])
    expect(await surviving(server, TITLES, [t.a, t.c, t.s])).toEqual([t.s])
    expect(await surviving(server, POSITIONS, [t.pa, t.ps, t.empty, t.otherPosition])).toEqual([t.otherPosition])
  })

  it('a component takes the groups it owns (with their contents) and the positions that held it', async () => {
    const t = await pageTree()
    const { status } = await remove(api, 'titles', t.a)
    expect(status === 204 || status === 200).toBe(true)
    expect(await surviving(server, GROUPS, [t.g, t.nested])).toEqual([t.g])
    expect(await surviving(server, POSITIONS, [t.pa, t.nestedPosition, t.ps])).toEqual([t.ps])
    expect(await surviving(server, TITLES, [t.a, t.c, t.s])).toEqual([t.s])
  })

  it('a group another owner not being deleted also has stays with everything in it', async () => {
    const p = server.payload
    const shared = await group(p)
    const inside = await title(p)
    const insidePosition = await position(p, shared, { slug: 'titles', id: inside })
    const one = await title(p, [shared])
    const two = await title(p, [shared])
    const { status } = await remove(api, 'titles', one)
    expect(status === 204 || status === 200).toBe(true)
    expect(await exists(server, TITLES, one)).toBe(false)
    expect(await exists(server, GROUPS, shared)).toBe(true)
    expect(await exists(server, POSITIONS, insidePosition)).toBe(true)
    expect(await surviving(server, TITLES, [two, inside])).toEqual([two, inside])
  })

  it('a layout takes its groups; a layout pages still use is a 422 naming them, and nothing is deleted', async () => {
    const p = server.payload
    const g = await group(p)
    const inside = await title(p)
    const insidePosition = await position(p, g, { slug: 'titles', id: inside })
    const used = await layout(p, [g])
    const user = await page(p, used)
    const refused = await remove(api, 'layouts', used)
    expect(refused.status).toBe(422)
    expect(JSON.stringify(refused.body)).toContain(`/_api/_/pages/${user}`)
    expect(await exists(server, '_acb_layouts', used)).toBe(true)
    expect(await exists(server, GROUPS, g)).toBe(true)
    expect(await exists(server, POSITIONS, insidePosition)).toBe(true)

    const free = await layout(p, [g])
    await server.payload.update({ collection: 'layouts', id: used, data: { componentGroups: [] } as never, depth: 0 })
    await server.payload.update({ collection: 'pages', id: user, data: { layout: free } as never, depth: 0 })
    const accepted = await remove(api, 'layouts', free)
    expect(accepted.status).toBe(422)
    await server.payload.update({ collection: 'pages', id: user, data: { layout: used } as never, depth: 0 })
    const gone = await remove(api, 'layouts', free)
    expect(gone.status === 204 || gone.status === 200).toBe(true)
    expect(await exists(server, GROUPS, g)).toBe(false)
    expect(await exists(server, TITLES, inside)).toBe(false)
  })

  it('a template page page data still uses is a 422 naming the page data, and nothing is deleted', async () => {
    const p = server.payload
    const l = await layout(p)
    const g = await group(p)
    const template = await page(p, l, [g], { isTemplate: true })
    const data = await createRecord(p, 'blog_article_datas', { title: 'Post', page: template })
    const refused = await remove(api, 'pages', template)
    expect(refused.status).toBe(422)
    expect(JSON.stringify(refused.body)).toContain(`/_api/page_data/blog_article_datas/${data}`)
    expect(await exists(server, '_acb_pages', template)).toBe(true)
    expect(await exists(server, GROUPS, g)).toBe(true)
  })

  it('page data takes the components of its properties that are used nowhere else', async () => {
    const p = server.payload
    const l = await layout(p)
    const template = await page(p, l, [], { isTemplate: true })
    const own = await createRecord(p, 'html_contents', { html: '<p>own</p>', publishedAt: new Date().toISOString() })
    const placedImage = await createRecord(p, 'images', { publishedAt: new Date().toISOString() })
    const g = await group(p)
    await position(p, g, { slug: 'images', id: placedImage })
    await page(p, l, [g])
    const data = await createRecord(p, 'blog_article_datas', {
      title: 'Post',
      page: template,
      htmlContent: own,
      image: placedImage,
    })
    const { status } = await remove(api, 'blog_article_datas', data)
    expect(status === 204 || status === 200).toBe(true)
    expect(await exists(server, HTML, own)).toBe(false)
    expect(await exists(server, '_acb_images', placedImage)).toBe(true)
  })
})

/** A published HtmlContent with a draft (PATCH of a published record by an admin creates the draft twin). */
async function publishedWithDraft(): Promise<{ published: string; draft: string }> {
  const published = await createRecord(server.payload, 'html_contents', {
    html: '<p>live</p>',
    publishedAt: new Date(Date.now() - 60_000).toISOString(),
  })
  const response = await server.patch(
    `/_api/component/html_contents/${published}`,
    { html: '<p>pending</p>' },
    { token: admin },
  )
  if (response.status !== 200) throw new Error(`draft: ${response.status} ${response.text}`)
  const [row] = await server.sql(`SELECT id::text FROM ${HTML} WHERE published_resource_id = $1`, [published])
  return { published, draft: row.id }
}

const positionTarget = async (positionId: string) =>
  (
    await server.sql(
      `SELECT _acb_html_contents_id::text AS id FROM _acb_component_positions_rels WHERE parent_id = $1 AND path = 'component'`,
      [positionId],
    )
  )[0]?.id ?? null

describe('published components and their drafts (which rule wins)', () => {
  it.each(APIS)(
    '%s: DELETE of the published component itself keeps its draft, which takes over its positions (the state machine)',
    async (api) => {
      const { published, draft } = await publishedWithDraft()
      const g = await group(server.payload)
      const placed = await position(server.payload, g, { slug: 'html_contents', id: published })
      const { status } = await remove(api, 'html_contents', published)
      expect(status === 204 || status === 200).toBe(true)
      expect(await exists(server, HTML, published)).toBe(false)
      expect(await exists(server, HTML, draft)).toBe(true)
      expect(await exists(server, POSITIONS, placed)).toBe(true)
      expect(await positionTarget(placed)).toBe(draft)
    },
  )

  it.each(APIS)('%s: a published component taken by a cascade takes its draft (rule 5)', async (api) => {
    const { published, draft } = await publishedWithDraft()
    const g = await group(server.payload)
    await position(server.payload, g, { slug: 'html_contents', id: published })
    const { status } = await remove(api, 'component_groups', g)
    expect(status === 204 || status === 200).toBe(true)
    expect(await surviving(server, HTML, [published, draft])).toEqual([])
  })

  it.each(APIS)('%s: ... unless the draft is itself placed', async (api) => {
    const { published, draft } = await publishedWithDraft()
    const g = await group(server.payload)
    await position(server.payload, g, { slug: 'html_contents', id: published })
    const elsewhere = await group(server.payload)
    const draftPosition = await position(server.payload, elsewhere, { slug: 'html_contents', id: draft })
    const { status } = await remove(api, 'component_groups', g)
    expect(status === 204 || status === 200).toBe(true)
    expect(await surviving(server, HTML, [published, draft])).toEqual([draft])
    expect(await exists(server, POSITIONS, draftPosition)).toBe(true)
  })

  it.each(APIS)('%s: ... or held by a page data property', async (api) => {
    const { published, draft } = await publishedWithDraft()
    const g = await group(server.payload)
    await position(server.payload, g, { slug: 'html_contents', id: published })
    const template = await page(server.payload, await layout(server.payload), [], { isTemplate: true })
    const data = await createRecord(server.payload, 'blog_article_datas', {
      title: 'Holds the draft',
      page: template,
      htmlContent: draft,
    })
    const { status } = await remove(api, 'component_groups', g)
    expect(status === 204 || status === 200).toBe(true)
    expect(await surviving(server, HTML, [published, draft])).toEqual([draft])
    expect(await exists(server, '_acb_blog_article_datas', data)).toBe(true)
  })
})

describe('one transaction', () => {
  it('a refused delete (a layout pages still use) changes nothing: the check runs before any cascade step', async () => {
    // The layout refuses (pages use it): the page's earlier cascade steps must not have run either.
    const p = server.payload
    const g = await group(p)
    const t = await title(p)
    const pos = await position(p, g, { slug: 'titles', id: t })
    const l = await layout(p, [g])
    await page(p, l)
    const before = await server.sql(`SELECT count(*)::int AS n FROM ${POSITIONS}`)
    const response = await remove('rest', 'layouts', l)
    expect(response.status).toBe(422)
    expect(await server.sql(`SELECT count(*)::int AS n FROM ${POSITIONS}`)).toEqual(before)
    expect(await exists(server, POSITIONS, pos)).toBe(true)
    expect(await exists(server, TITLES, t)).toBe(true)
  })
})
