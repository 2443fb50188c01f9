import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import sharp from 'sharp'
import { startTestServer, type TestServer } from '../support/server'
import { group, layout, page, position, ref, title } from '../support/componentTree'

/**
 * Issue 23, a page published as a whole (POST /_/page_builder/publish and
 * /schedule) and blocks added with their content (POST
 * /_/page_builder/blocks): block states in the builder view, one
 * transaction through the batch publish, refusals naming the block and the
 * field, the layout only when asked, admin only, bad input 4xx.
 */

let server: TestServer
let admin: string
let user: string

const P = '/_api'
const PAGE = (id: string) => `${P}/_/pages/${id}`
const LINK = (id: string) => `${P}/component/navigation_links/${id}`
const past = () => new Date(Date.now() - 60_000).toISOString()

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
})
afterAll(async () => {
  await server?.close()
})

/** A navigation link (publishable: a label, and a route or a raw path, to publish). */
const link = (label: string, extra: Record<string, unknown> = { rawPath: '/somewhere' }) =>
  server.payload
    .create({ collection: 'navigation_links' as never, data: { label, ...extra } as never, depth: 0 })
    .then((d) => String((d as { id: string }).id))
const anonymous = (iri: string) => server.get(iri)

/**
 * A page on a layout: the page's group holds a draft, a live block with a
 * pending edit (its draft twin), a live block and a Title (not publishable);
 * the layout's group a draft of its own.
 */
async function pageWithChanges(extra: { bad?: boolean } = {}) {
  const p = server.payload
  const header = await group(p)
  const layoutDraft = await link('Layout draft')
  await position(p, header, { slug: 'navigation_links', id: layoutDraft })
  const lay = await layout(p, [header])
  const main = await group(p)
  const draft = await link('New block')
  const edited = await link('Live text', { rawPath: '/live', publishedAt: past() })
  const live = await link('Untouched', { rawPath: '/untouched', publishedAt: past() })
  const t = await title(p)
  const blocks = [draft, edited, live]
  // Nowhere to go: NavigationLink's own publish rule refuses it (on route).
  const bad = extra.bad ? await link('Nowhere', {}) : null
  if (bad) blocks.push(bad)
  for (const [index, id] of blocks.entries())
    await position(p, main, { slug: 'navigation_links', id }, { sortValue: index })
  await position(p, main, { slug: 'titles', id: t }, { sortValue: 10 })
  const pg = await page(p, lay, [main])
  // The pending edit, made the way an editor makes it (the JSON-LD API routes it to a draft twin).
  const patched = await server.patch(LINK(edited), { label: 'Edited text' }, { token: admin })
  expect(patched.status).toBe(200)
  return { page: pg, layout: lay, main, header, draft, edited, live, title: t, bad, layoutDraft }
}

const view = async (iri: string) =>
  (await server.get(`${P}/_/page_builder?iri=${encodeURIComponent(iri)}`, { token: admin })).body
const publish = (body: unknown, token: string | null = admin) =>
  server.post(`${P}/_/page_builder/publish`, body, token ? { token } : {})

describe('the builder view: block states and the page summary', () => {
  it('shows each block as draft, live with a pending draft, live; counts the changes not published, page and layout apart', async () => {
    const built = await pageWithChanges()
    const body = await view(PAGE(built.page))
    const states = body.page.groups[0].positions.map((p: { component: { state: string } }) => p.component.state)
    expect(states).toEqual(['draft', 'live-draft', 'live', 'live'])
    // The pending edit is what the builder names the block by, and the draft it would publish is given.
    const edited = body.page.groups[0].positions[1].component
    expect(edited.title).toBe('Edited text')
    expect(edited.pending).toMatch(/^\/_api\/component\/navigation_links\/[0-9a-f-]{36}$/)
    expect(edited.pending).not.toBe(LINK(built.edited))
    expect(body.changes).toEqual({ page: 2, layout: 1 })
    expect(body.layout.groups[0].positions[0].component.state).toBe('draft')
  })

  it('shows a scheduled draft as scheduled, with its date', async () => {
    const p = server.payload
    const main = await group(p)
    const at = new Date(Date.now() + 86_400_000).toISOString()
    const scheduled = await link('Tomorrow', { rawPath: '/tomorrow', publishedAt: at })
    await position(p, main, { slug: 'navigation_links', id: scheduled })
    const pg = await page(p, await layout(p), [main])
    const component = (await view(PAGE(pg))).page.groups[0].positions[0].component
    expect(component).toMatchObject({ state: 'scheduled', scheduledAt: at })
  })
})

describe('POST /_/page_builder/publish', () => {
  it("publishes every pending draft of the page in one request; the layout's stay drafts; anonymous callers then read the page's blocks", async () => {
    const built = await pageWithChanges()
    expect((await anonymous(LINK(built.draft))).status).toBe(404)
    const response = await publish({ iri: PAGE(built.page) })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.body['@type']).toBe('PagePublication')
    expect(response.body.published.sort()).toEqual([LINK(built.draft), LINK(built.edited)].sort())
    expect((await anonymous(LINK(built.draft))).body.label).toBe('New block')
    expect((await anonymous(LINK(built.edited))).body.label).toBe('Edited text')
    // The layout's draft only when asked.
    expect((await anonymous(LINK(built.layoutDraft))).status).toBe(404)
    expect((await view(PAGE(built.page))).changes).toEqual({ page: 0, layout: 1 })
    const again = await publish({ iri: PAGE(built.page), includeLayout: true })
    expect(again.body.published).toEqual([LINK(built.layoutDraft)])
    expect((await anonymous(LINK(built.layoutDraft))).status).toBe(200)
    // Nothing left: an empty list, not an error.
    expect((await publish({ iri: PAGE(built.page), includeLayout: true })).body).toMatchObject({
      published: [],
      totalItems: 0,
    })
  })

  it('publishes the blocks of nested groups (a component owning a group) too', async () => {
    const p = server.payload
    const inner = await group(p)
    const nestedDraft = await link('Nested')
    await position(p, inner, { slug: 'navigation_links', id: nestedDraft })
    const owner = await title(p, [inner])
    const main = await group(p)
    await position(p, main, { slug: 'titles', id: owner })
    const pg = await page(p, await layout(p), [main])
    expect((await view(PAGE(pg))).changes.page).toBe(1)
    expect((await publish({ iri: PAGE(pg) })).body.published).toEqual([LINK(nestedDraft)])
  })

  it('refuses a draft that fails its publish validation, naming the block and the field in words, and publishes nothing', async () => {
    const built = await pageWithChanges({ bad: true })
    const response = await publish({ iri: PAGE(built.page) })
    expect(response.status).toBe(422)
    expect(response.body.violations).toHaveLength(1)
    const [refusal] = response.body.violations
    expect(refusal).toMatchObject({
      block: LINK(built.bad!),
      draft: LINK(built.bad!),
      field: 'route',
      propertyPath: 'route',
    })
    // In words: the type as the admin names it, the block's title, the field's label, the rule's message.
    expect(refusal.message).toMatch(
      /^The (NavigationLink|Navigation link) block “Nowhere” cannot be published: Route: A route or a rawPath is required to publish\.$/,
    )
    // Nothing half-published: the good drafts are still drafts.
    expect((await anonymous(LINK(built.draft))).status).toBe(404)
    expect((await anonymous(LINK(built.edited))).body.label).toBe('Live text')
    expect((await view(PAGE(built.page))).changes.page).toBe(3)
  })

  it('rolls the whole publication back when a write fails half way (a database refusal on the third block)', async () => {
    const built = await pageWithChanges()
    const p = server.payload
    const boom = await link('boom')
    await position(p, built.main, { slug: 'navigation_links', id: boom }, { sortValue: 20 })
    // A trigger refuses only that row's publication, after the two drafts before it were written in the same transaction.
    await server.sql(`CREATE OR REPLACE FUNCTION refuse_boom() RETURNS trigger AS $$ BEGIN
        IF NEW.label = 'boom' AND NEW.published_at IS NOT NULL THEN RAISE EXCEPTION 'refused by the test' USING ERRCODE = 'check_violation'; END IF;
        RETURN NEW; END $$ LANGUAGE plpgsql`)
    await server.sql(
      `CREATE TRIGGER refuse_boom BEFORE UPDATE ON _acb_navigation_links FOR EACH ROW EXECUTE FUNCTION refuse_boom()`,
    )
    try {
      const response = await publish({ iri: PAGE(built.page) })
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect((await anonymous(LINK(built.draft))).status).toBe(404)
      expect((await anonymous(LINK(built.edited))).body.label).toBe('Live text')
      expect((await view(PAGE(built.page))).changes.page).toBe(3)
    } finally {
      await server.sql('DROP TRIGGER refuse_boom ON _acb_navigation_links')
    }
  })

  it('is admin only: 401 anonymous, 403 a signed-in user, and nothing is published', async () => {
    const built = await pageWithChanges()
    expect((await publish({ iri: PAGE(built.page) }, null)).status).toBe(401)
    expect((await publish({ iri: PAGE(built.page) }, user)).status).toBe(403)
    expect((await anonymous(LINK(built.draft))).status).toBe(404)
  })

  it('answers bad input with a 4xx naming what is wrong', async () => {
    const built = await pageWithChanges()
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, 'iri'],
      [{ iri: 'nonsense' }, 422, 'iri'],
      [{ iri: LINK(built.draft) }, 422, 'iri'],
      [{ iri: PAGE(built.page), includeLayout: 'yes' }, 422, 'includeLayout'],
      [['not', 'an', 'object'], 422, ''],
    ]
    for (const [body, status, property] of cases) {
      const response = await publish(body)
      expect(response.status).toBe(status)
      expect(response.body.violations[0].propertyPath).toBe(property)
    }
    expect((await publish({ iri: PAGE('00000000-0000-4000-8000-000000000000') })).status).toBe(404)
    expect(
      (
        await server.post(`${P}/_/page_builder/publish`, undefined, {
          token: admin,
          raw: '{not json',
          contentType: 'application/ld+json',
        })
      ).status,
    ).toBe(400)
    expect((await anonymous(LINK(built.draft))).status).toBe(404)
  })
})

describe('POST /_/page_builder/schedule', () => {
  it('schedules every pending draft of the page for one date; a date in the past is refused', async () => {
    const built = await pageWithChanges()
    const at = new Date(Date.now() + 3_600_000).toISOString()
    const refused = await server.post(
      `${P}/_/page_builder/schedule`,
      { iri: PAGE(built.page), publishedAt: past() },
      { token: admin },
    )
    expect(refused.status).toBe(422)
    expect(refused.body.violations[0].propertyPath).toBe('publishedAt')
    const response = await server.post(
      `${P}/_/page_builder/schedule`,
      { iri: PAGE(built.page), publishedAt: at },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.body.totalItems).toBe(2)
    const states = (await view(PAGE(built.page))).page.groups[0].positions.map(
      (p: { component: { state: string } }) => p.component.state,
    )
    expect(states).toEqual(['scheduled', 'live-scheduled', 'live', 'live'])
    expect((await anonymous(LINK(built.draft))).status).toBe(404)
    expect((await server.post(`${P}/_/page_builder/schedule`, { iri: PAGE(built.page), publishedAt: at })).status).toBe(
      401,
    )
  })
})

describe('POST /_/page_builder/blocks', () => {
  const addBlock = (body: unknown, token: string | null = admin) =>
    server.post(`${P}/_/page_builder/blocks`, body, token ? { token } : {})

  it('creates a block with its content and places it at the end of the group, in one step', async () => {
    const p = server.payload
    const main = await group(p)
    await position(p, main, { slug: 'titles', id: await title(p) })
    const response = await addBlock({
      componentGroup: `${P}/_/component_groups/${main}`,
      type: `${P}/component/titles`,
      data: { title: 'Added in one step' },
    })
    expect(response.status).toBe(201)
    expect(response.body.sortValue).toBe(1)
    const stored = await server.get(response.body.component, { token: admin })
    expect(stored.body.title).toBe('Added in one step')
    expect((await server.get(response.body.position, { token: admin })).body.component).toBe(response.body.component)
  })

  it('uploads an image with its alt text from the builder; the API serves both, and the admin title is the file name without its token', async () => {
    const main = await group(server.payload)
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 20 } } })
      .png()
      .toBuffer()
    const file = `data:image/png;name=${encodeURIComponent('Red square.png')};base64,${png.toString('base64')}`
    const response = await addBlock({
      componentGroup: `${P}/_/component_groups/${main}`,
      type: `${P}/component/images`,
      data: { file, alt: 'A red square' },
    })
    expect(response.status).toBe(201)
    const image = (await server.get(response.body.component, { token: admin })).body
    expect(image.alt).toBe('A red square')
    expect(image._metadata.mediaObjects.file[0]).toMatchObject({ width: 40, height: 30 })
    const [row] = await server.sql('SELECT admin_title FROM _acb_images WHERE id = $1', [
      response.body.component.split('/').pop(),
    ])
    expect(row.admin_title).toBe('Red square')
  })

  it('a navigation link picks its route in the same step (the route as an IRI): publishable at once; a route that is no route IRI is a 422 on data.route', async () => {
    const p = server.payload
    const main = await group(p)
    const groupIri = `${P}/_/component_groups/${main}`
    const target = await page(p, await layout(p), [], { title: `Linked ${ref('p')}` })
    const route = (await server.post(`${P}/_/routes/generate`, { page: PAGE(target) }, { token: admin })).body
    // The builder view names the field the add form offers for it.
    const host = await page(p, await layout(p), [main])
    const offered = (await view(PAGE(host))).page.groups[0].addable.find(
      (t: { slug: string }) => t.slug === 'navigation_links',
    )
    expect(offered.main).toMatchObject({ name: 'label', kind: 'text', link: { name: 'route', label: 'Route' } })
    // Whether a new block is a draft (a publishable type) or live at once: the builder says it before the click.
    const addable = (await view(PAGE(host))).page.groups[0].addable as Array<{ slug: string; drafts: boolean }>
    expect(Object.fromEntries(addable.map((t) => [t.slug, t.drafts]))).toMatchObject({
      navigation_links: true,
      html_contents: true,
      titles: false,
    })
    const added = await addBlock({
      componentGroup: groupIri,
      type: `${P}/component/navigation_links`,
      data: { label: 'To the linked page', route: route['@id'] },
    })
    expect(added.status).toBe(201)
    const link = (await server.get(added.body.component, { token: admin })).body
    expect(link.route).toBe(route['@id'])
    const placed = (await view(PAGE(host))).page.groups[0].positions.at(-1).component
    expect(placed).toMatchObject({ '@id': added.body.component, drafts: true, state: 'draft' })
    expect((await publish({ iri: PAGE(host) })).body.published).toEqual([added.body.component])
    // Attack: a route IRI to no route (or a malformed id) must not place a dangling link, nor answer a 500.
    const links = async () => (await p.count({ collection: 'navigation_links' as never })).totalDocs
    const before = await links()
    for (const missing of [`${P}/_/routes/00000000-0000-4000-8000-000000000000`, `${P}/_/routes/not-an-id`]) {
      const refused = await addBlock({
        componentGroup: groupIri,
        type: `${P}/component/navigation_links`,
        data: { label: 'Nowhere', route: missing },
      })
      expect({ missing, status: refused.status }).toEqual({ missing, status: 422 })
    }
    expect(await links()).toBe(before)
    for (const bad of ['/somewhere', `${P}/_/pages/${target}`, 42]) {
      const refused = await addBlock({
        componentGroup: groupIri,
        type: `${P}/component/navigation_links`,
        data: { label: 'Bad', route: bad },
      })
      expect({ bad, status: refused.status, path: refused.body.violations?.[0]?.propertyPath }).toEqual({
        bad,
        status: 422,
        path: 'data.route',
      })
    }
  })

  it('refuses a field it cannot set, an unknown type or group, and leaves nothing behind', async () => {
    const main = await group(server.payload)
    const groupIri = `${P}/_/component_groups/${main}`
    const before = await server.sql('SELECT count(*)::int AS n FROM _acb_titles')
    const unknownField = await addBlock({
      componentGroup: groupIri,
      type: `${P}/component/titles`,
      data: { uiComponent: 'X' },
    })
    expect(unknownField.status).toBe(422)
    expect(unknownField.body.violations[0].propertyPath).toBe('data.uiComponent')
    expect((await addBlock({ componentGroup: groupIri, type: `${P}/_/pages` })).status).toBe(422)
    expect(
      (await addBlock({ componentGroup: groupIri, type: `${P}/component/titles`, data: { title: 42 } })).status,
    ).toBe(422)
    // The answers its input gives, and the handler's order after it: the type, data, its fields, then the group.
    const violations = async (body: unknown) => {
      const response = await addBlock(body)
      expect(response.status).toBe(422)
      return response.body.violations.map((v: Record<string, string>) => [v.propertyPath, v.message, v.code])
    }
    expect(await violations([])).toEqual([['', 'A JSON object is required.', 'invalid']])
    expect(await violations({ componentGroup: groupIri, type: `${P}/component/titles/${main}`, data: 1 })).toEqual([
      ['type', 'type must be the collection IRI of a component type.', 'invalid_iri'],
    ])
    expect(await violations({ componentGroup: groupIri, type: `${P}/component/titles`, data: null })).toEqual([
      ['data', 'data must be an object of the block’s fields.', 'type'],
    ])
    expect(await violations({ componentGroup: 5, type: `${P}/component/titles`, data: { uiComponent: 1 } })).toEqual([
      [
        'data.uiComponent',
        'A new Title block cannot be given "uiComponent" here: add it, then edit it.',
        'unknown_field',
      ],
    ])
    expect(await violations({ type: `${P}/component/titles`, data: { title: 'x' } })).toEqual([
      ['componentGroup', 'componentGroup must be the IRI of a component group.', 'invalid_iri'],
    ])
    // The group is gone: the component created in the same transaction goes with the refusal.
    const missing = await addBlock({
      componentGroup: `${P}/_/component_groups/00000000-0000-4000-8000-000000000000`,
      type: `${P}/component/titles`,
      data: { title: ref('lost') },
    })
    expect(missing.status).toBe(404)
    expect(await server.sql('SELECT count(*)::int AS n FROM _acb_titles')).toEqual(before)
    expect(
      (await addBlock({ componentGroup: groupIri, type: `${P}/component/titles`, data: { title: 'x' } }, null)).status,
    ).toBe(401)
    expect(
      (await addBlock({ componentGroup: groupIri, type: `${P}/component/titles`, data: { title: 'x' } }, user)).status,
    ).toBe(403)
  })
})

/**
 * Issue 40, one publishing moment per page: a route the admin panel generates for a page waits (its own liveAt
 * empty) until "Publish page" or "Schedule page" gives it the page's moment, in the same transaction as the blocks.
 * The attack guarded against (an editor's, by accident): a new page public, heading and draft blocks, before the
 * editor published it.
 */
describe('one publishing moment per page', () => {
  /** "Generate route from title", as the admin panel sends it (Payload REST, the admin's own session). */
  const generate = (pageId: string) =>
    server.request(
      'POST',
      `/api/pages/${pageId}/generate-route`,
      {},
      {
        contentType: 'application/json',
        headers: { accept: 'application/json', cookie: `api_component=${encodeURIComponent(admin)}` },
      },
    )
  const routeOf = (path: string) => server.get(`${P}/_/routes/${path}`)
  /** A new page with a draft block, titled for a path of its own, and its generated route. */
  async function newPage(name: string, extra: { bad?: boolean } = {}) {
    const p = server.payload
    const main = await group(p)
    await position(p, main, { slug: 'navigation_links', id: await link(`${name} block`) })
    if (extra.bad)
      await position(p, main, { slug: 'navigation_links', id: await link('Nowhere', {}) }, { sortValue: 1 })
    const id = await page(p, await layout(p), [main], { title: `${name} ${ref('p')}` })
    const generated = await generate(id)
    expect(generated.status).toBe(201)
    return { id, path: generated.body.path as string }
  }

  it('a generated route waits: not public, the builder says so; "Publish page" publishes the blocks and the route at once', async () => {
    const { id, path } = await newPage('Waiting')
    expect((await routeOf(path)).status).toBe(404)
    const before = await view(PAGE(id))
    expect(before.route).toMatchObject({ path, liveAt: null, effectiveLiveAt: null, state: 'offline', waits: true })
    const published = await publish({ iri: PAGE(id) })
    expect(published.status).toBe(200)
    expect(published.body).toMatchObject({ route: path, totalItems: 1 })
    const read = await routeOf(path)
    expect(read.status).toBe(200)
    expect((await view(PAGE(id))).route).toMatchObject({ path, state: 'live', waits: false })
    // Published already: the next "Publish page" leaves the route's date alone.
    const again = await publish({ iri: PAGE(id) })
    expect(again.body).toMatchObject({ route: null, published: [] })
  })

  it('"Publish page" with no block to publish still makes a waiting route public', async () => {
    const p = server.payload
    const id = await page(p, await layout(p), [], { title: `Empty ${ref('p')}` })
    const { path } = (await generate(id)).body
    expect((await publish({ iri: PAGE(id) })).body).toMatchObject({ route: path, published: [] })
    expect((await routeOf(path)).status).toBe(200)
  })

  it('a refused publication leaves the route waiting (one transaction)', async () => {
    const { id, path } = await newPage('Refused', { bad: true })
    expect((await publish({ iri: PAGE(id) })).status).toBe(422)
    expect((await view(PAGE(id))).route).toMatchObject({ liveAt: null, state: 'offline' })
    expect((await routeOf(path)).status).toBe(404)
  })

  it('"Schedule page" gives a waiting route the scheduled moment', async () => {
    const { id, path } = await newPage('Scheduled')
    const at = new Date(Date.now() + 3_600_000).toISOString()
    const scheduled = await server.post(
      `${P}/_/page_builder/schedule`,
      { iri: PAGE(id), publishedAt: at },
      { token: admin },
    )
    expect(scheduled.status).toBe(200)
    expect(scheduled.body).toMatchObject({ route: path, publishedAt: at })
    // Still "waits": its date is to come, and a "Publish page" before then would make it public now.
    expect((await view(PAGE(id))).route).toMatchObject({ liveAt: at, state: 'scheduled', waits: true })
    expect((await routeOf(path)).status).toBe(404)
  })

  it("the contract's POST /_/routes/generate still makes a live route (only the admin panel's waits)", async () => {
    const p = server.payload
    const id = await page(p, await layout(p), [], { title: `Contract ${ref('p')}` })
    const created = await server.post(`${P}/_/routes/generate`, { page: PAGE(id) }, { token: admin })
    expect(created.status).toBe(201)
    expect((await routeOf(created.body.path)).status).toBe(200)
  })
})
