import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { createRecord } from '../../support/fixtures'
import { routeFixtures } from '../../support/routeFixtures'

/**
 * "Public access follows routes" with routable_security set (contract):
 * reachable pages, page data, templates and components are public; the rest
 * is 401 (anonymous) / 403 (signed in) through the JSON-LD API, and hidden
 * or forbidden through Payload's REST API too. Collections list only records
 * with their own live route.
 */

let server: TestServer
let user: string
let admin: string
let superAdmin: string
const ids: Record<string, string> = {}

/** Payload's REST API takes the session cookie of the JSON-LD API. */
const cookie = (token: string) => ({ headers: { cookie: `api_component=${token}` } })

const iri = {
  page: (id: string) => `/_api/_/pages/${id}`,
  article: (id: string) => `/_api/page_data/blog_article_datas/${id}`,
  title: (id: string) => `/_api/component/titles/${id}`,
  html: (id: string) => `/_api/component/html_contents/${id}`,
}

beforeAll(async () => {
  server = await startTestServer({ options: { routableSecurity: 'ROLE_SUPER_ADMIN' } })
  const fx = routeFixtures(server.payload)
  const p = server.payload
  const create = (collection: string, data: Record<string, unknown>) => createRecord(p, collection, data)
  const title = (name: string) => create('titles', { title: name })
  const group = async (name: string, ...components: string[]) => {
    const id = await create('component_groups', { reference: fx.unique(name) })
    for (const component of components)
      await create('component_positions', { componentGroup: id, component: { relationTo: 'titles', value: component } })
    return id
  }
  ids.layoutComponent = await title('in layout')
  const layout = await create('layouts', {
    reference: fx.unique('layout'),
    componentGroups: [await group('layout', ids.layoutComponent)],
  })
  ids.parentComponent = await title('on parent')
  ids.parent = await create('pages', {
    reference: fx.unique('parent'),
    layout,
    componentGroups: [await group('parent', ids.parentComponent)],
  })
  ids.nested = await title('nested')
  ids.outer = await create('titles', { title: 'outer', componentGroups: [await group('outer', ids.nested)] })
  ids.child = await create('pages', {
    reference: fx.unique('child'),
    layout,
    parentPage: ids.parent,
    componentGroups: [await group('child', ids.outer)],
  })
  await fx.route('/matrix-child', { page: ids.child })
  ids.privateComponent = await title('private')
  ids.private = await create('pages', {
    reference: fx.unique('private'),
    layout,
    componentGroups: [await group('private', ids.privateComponent)],
  })
  ids.templateComponent = await title('template')
  ids.template = await create('pages', {
    reference: fx.unique('template'),
    layout,
    isTemplate: true,
    componentGroups: [await group('template', ids.templateComponent)],
  })
  ids.held = await create('html_contents', { html: '<p>held</p>', publishedAt: new Date().toISOString() })
  ids.article = await create('blog_article_datas', {
    title: 'Routed article',
    page: ids.template,
    htmlContent: ids.held,
  })
  await fx.route('/matrix-article', { pageData: { relationTo: 'blog_article_datas', value: ids.article } })
  ids.gatedComponent = await title('gated')
  ids.gated = await create('pages', {
    reference: fx.unique('gated'),
    layout,
    componentGroups: [await group('gated', ids.gatedComponent)],
  })
  ids.gatedRoute = String((await fx.route('/matrix-offline', { page: ids.gated }, null)).id)
  ids.orphan = await title('nowhere')
  user = await server.tokenFor('ROLE_USER')
  admin = await server.tokenFor('ROLE_ADMIN')
  superAdmin = await server.tokenFor('ROLE_SUPER_ADMIN')
})
afterAll(async () => {
  await server?.close()
})

describe('pages and page data by IRI (JSON-LD)', () => {
  it.each([
    ['a page with a live route', () => iri.page(ids.child)],
    ['an ancestor page with no route of its own (rule 1)', () => iri.page(ids.parent)],
    ['page data with a live route', () => iri.article(ids.article)],
    ['the template page that reachable page data renders through', () => iri.page(ids.template)],
  ])('anonymous callers read %s', async (_name, path) => {
    expect((await server.get(path())).status).toBe(200)
  })

  it('attack: anonymous read of a page no route reaches is refused with 401, a signed-in user gets 403, routable_security passes', async () => {
    expect((await server.get(iri.page(ids.private))).status).toBe(401)
    expect((await server.get(iri.page(ids.private), { token: user })).status).toBe(403)
    expect((await server.get(iri.page(ids.private), { token: superAdmin })).status).toBe(200)
  })

  it('attack: a page whose route is not live (liveAt null) is 401 for anonymous, readable by admins', async () => {
    expect((await server.get(iri.page(ids.gated))).status).toBe(401)
    expect((await server.get(iri.page(ids.gated), { token: admin })).status).toBe(200)
  })

  it('an unknown id stays 404 (the gate does not turn absence into 401)', async () => {
    expect((await server.get(iri.page('00000000-0000-4000-8000-000000000000'))).status).toBe(404)
  })
})

describe('components by IRI: the five cases', () => {
  it.each([
    ['1: placed on a reachable page', () => iri.title(ids.parentComponent)],
    ['1: placed through the layout of a reachable page', () => iri.title(ids.layoutComponent)],
    ['1: nested in a component placed on a reachable page', () => iri.title(ids.nested)],
    ['2: held as a property of reachable page data', () => iri.html(ids.held)],
    ['3: placed in the template of reachable page data', () => iri.title(ids.templateComponent)],
    ['5: with no location at all', () => iri.title(ids.orphan)],
  ])('case %s: granted to anonymous callers', async (_name, path) => {
    expect((await server.get(path())).status).toBe(200)
  })

  it('case 4 (attack): placed only where no live route reaches: 401 anonymous, 403 signed in, 200 passing routable_security', async () => {
    for (const id of [ids.privateComponent, ids.gatedComponent]) {
      expect((await server.get(iri.title(id))).status).toBe(401)
      expect((await server.get(iri.title(id), { token: user })).status).toBe(403)
      expect((await server.get(iri.title(id), { token: superAdmin })).status).toBe(200)
    }
  })
})

describe('collections', () => {
  it('list only pages with their own live route; totalItems counts what is returned', async () => {
    const response = await server.get('/_api/_/pages')
    const members = response.body.member.map((m: { id: string }) => m.id)
    expect(members).toContain(ids.child)
    for (const hidden of [ids.parent, ids.template, ids.private, ids.gated]) expect(members).not.toContain(hidden)
    expect(response.body.totalItems).toBe(members.length)
    const all = (await server.get('/_api/_/pages', { token: admin })).body.member.map((m: { id: string }) => m.id)
    expect(all).toEqual(expect.arrayContaining([ids.parent, ids.private, ids.gated]))
  })

  it('list page data with a live route', async () => {
    const members = (await server.get('/_api/page_data/blog_article_datas')).body.member.map(
      (m: { id: string }) => m.id,
    )
    expect(members).toContain(ids.article)
  })

  it('component collections never list what their items refuse', async () => {
    const members = (await server.get('/_api/component/titles?itemsPerPage=100')).body.member.map(
      (m: { id: string }) => m.id,
    )
    expect(members).toEqual(
      expect.arrayContaining([ids.parentComponent, ids.nested, ids.orphan, ids.templateComponent]),
    )
    expect(members).not.toContain(ids.privateComponent)
    expect(members).not.toContain(ids.gatedComponent)
  })
})

describe("Payload's own REST API obeys the same rules", () => {
  it('attack: /api/pages/{id} of an unreachable page is forbidden; a reachable one is served', async () => {
    expect((await server.get(`/api/pages/${ids.private}`)).status).toBe(403)
    expect((await server.get(`/api/pages/${ids.parent}`)).status).toBe(200)
    expect((await server.get(`/api/pages/${ids.private}`, cookie(user))).status).toBe(403)
    expect((await server.get(`/api/pages/${ids.private}`, cookie(superAdmin))).status).toBe(200)
  })

  it('attack: /api/pages lists no unrouted page; /api/routes lists no route that is not live', async () => {
    const pages = (await server.get('/api/pages?limit=100&depth=0')).body.docs.map((d: { id: string }) => d.id)
    expect(pages).toContain(ids.child)
    expect(pages).not.toContain(ids.private)
    const routes = (await server.get('/api/routes?limit=100&depth=0')).body.docs
    expect(routes.map((d: { id: string }) => d.id)).not.toContain(ids.gatedRoute)
    expect(routes.every((d: Record<string, unknown>) => !('liveAt' in d))).toBe(true)
    expect((await server.get(`/api/routes/${ids.gatedRoute}`)).status).toBe(404)
  })

  it('attack: /api/titles/{id} of a component placed only on a private page is forbidden', async () => {
    expect((await server.get(`/api/titles/${ids.privateComponent}`)).status).toBe(403)
    expect((await server.get(`/api/titles/${ids.orphan}`)).status).toBe(200)
  })
})

describe('creating pages and page data needs routable_security', () => {
  it('attack: an admin failing routable_security cannot create a page (403, nothing stored); a caller passing it can (201)', async () => {
    const pagesNamed = async (reference: string) =>
      (await server.sql('SELECT id FROM _acb_pages WHERE reference = $1', [reference])).length
    const articlesTitled = async (title: string) =>
      (await server.sql('SELECT id FROM _acb_blog_article_datas WHERE title = $1', [title])).length
    const counts = async () =>
      (
        await server.sql(
          'SELECT (SELECT count(*) FROM _acb_pages)::int AS pages, (SELECT count(*) FROM _acb_blog_article_datas)::int AS articles',
        )
      )[0]
    const layout = (await server.post('/_api/_/layouts', { reference: 'create-check' }, { token: admin })).body['@id']
    const before = await counts()
    expect((await server.post('/_api/_/pages', { reference: 'refused', layout }, { token: admin })).status).toBe(403)
    expect(await pagesNamed('refused')).toBe(0)
    expect(await counts()).toEqual(before)
    const created = await server.post('/_api/_/pages', { reference: 'accepted', layout }, { token: superAdmin })
    expect(created.status).toBe(201)
    expect(await pagesNamed('accepted')).toBe(1)
    const refused = await server.post(
      '/_api/page_data/blog_article_datas',
      { title: 'x', page: created.body['@id'] },
      { token: admin },
    )
    expect(refused.status).toBe(403)
    expect(await articlesTitled('x')).toBe(0)
    expect(await counts()).toEqual({ pages: before.pages + 1, articles: before.articles })
    expect(
      (
        await server.post(
          '/_api/page_data/blog_article_datas',
          { title: 'y', page: created.body['@id'] },
          { token: superAdmin },
        )
      ).status,
    ).toBe(201)
    expect(await articlesTitled('y')).toBe(1)
  })
})
