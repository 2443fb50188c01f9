import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

/**
 * Reading single items through the JSON-LD API (issue 2, "Items"; contract
 * "Conventions", "Layout, Page, PageData, Route"; reference deployment
 * "IRIs"): @context, @id (the IRI, API prefix included), @type (short name),
 * id (UUID), fields, relations as IRIs (single, hasMany, polymorphic, join
 * fields), the timestamp rules, `_metadata` on components only, and the 404s.
 */

let server: TestServer
let admin: string

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const IRI = {
  layout: (id: string) => `/_api/_/layouts/${id}`,
  page: (id: string) => `/_api/_/pages/${id}`,
  route: (id: string) => `/_api/_/routes/${id}`,
  group: (id: string) => `/_api/_/component_groups/${id}`,
  position: (id: string) => `/_api/_/component_positions/${id}`,
  html: (id: string) => `/_api/component/html_contents/${id}`,
  title: (id: string) => `/_api/component/titles/${id}`,
  link: (id: string) => `/_api/component/navigation_links/${id}`,
  blog: (id: string) => `/_api/page_data/blog_article_datas/${id}`,
}

/** Fixture ids. */
const f: Record<string, string> = {}

async function make(collection: string, data: Record<string, unknown>): Promise<string> {
  const doc = await server.payload.create({ collection: collection as never, data: data as never, depth: 0 })
  return String(doc.id)
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')

  f.layoutGroup = await make('component_groups', { reference: 'layout-header', location: 'header' })
  f.pageGroup = await make('component_groups', { reference: 'page-main', location: 'main' })
  f.componentGroup = await make('component_groups', { reference: 'html-nested', location: 'nested' })
  f.emptyGroup = await make('component_groups', { reference: 'empty', allowedComponents: ['/_api/component/titles'] })
  f.layout = await make('layouts', {
    reference: 'main-layout',
    uiComponent: 'PrimaryLayout',
    componentGroups: [f.layoutGroup],
  })
  f.page = await make('pages', {
    reference: 'home',
    title: 'Home',
    metaDescription: 'The home page',
    uiComponent: 'HomePage',
    uiClassNames: ['is-wide', 'has-hero'],
    layout: f.layout,
    componentGroups: [f.pageGroup],
  })
  f.template = await make('pages', {
    reference: 'blog-template',
    title: 'Blog template',
    layout: f.layout,
    isTemplate: true,
  })
  f.childPage = await make('pages', { reference: 'child', title: 'Child', layout: f.layout, parentPage: f.page })
  f.html = await make('html_contents', { html: '<p>Hello</p>', componentGroups: [f.componentGroup] })
  f.title = await make('titles', { title: 'A title' })
  // Positions created out of sortValue order: the group lists them by sortValue.
  f.position2 = await make('component_positions', {
    componentGroup: f.pageGroup,
    component: { relationTo: 'html_contents', value: f.html },
    sortValue: 20,
  })
  f.position1 = await make('component_positions', {
    componentGroup: f.pageGroup,
    component: { relationTo: 'titles', value: f.title },
    sortValue: 10,
  })
  f.position3 = await make('component_positions', {
    componentGroup: f.layoutGroup,
    component: { relationTo: 'html_contents', value: f.html },
    sortValue: 0,
  })
  f.route = await make('routes', { path: '/home', page: f.page })
  f.redirect = await make('routes', { path: '/old-home', redirect: f.route })
  f.link = await make('navigation_links', { label: 'Home', route: f.route })
  f.blog = await make('blog_article_datas', { title: 'First post', page: f.template, htmlContent: f.html })
  f.childBlog = await make('blog_article_datas', {
    title: 'Follow-up',
    page: f.template,
    parentPageData: { relationTo: 'blog_article_datas', value: f.blog },
  })
  f.blogRoute = await make('routes', {
    path: '/blog/first-post',
    pageData: { relationTo: 'blog_article_datas', value: f.blog },
  })
  f.pageUnderBlog = await make('pages', {
    reference: 'under-blog',
    layout: f.layout,
    parentPageData: { relationTo: 'blog_article_datas', value: f.blog },
  })
})
afterAll(async () => {
  await server?.close()
})

/** GET that must answer 200 with JSON-LD. */
async function read(path: string, token?: string): Promise<Record<string, any>> {
  const response = await server.get(path, { token })
  expect({ path, status: response.status }).toEqual({ path, status: 200 })
  expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
  return response.body
}

describe('item envelope', () => {
  it('has @context, @id with the API prefix, @type = short name and a UUID id', async () => {
    const body = await read(IRI.page(f.page))
    expect(body['@context']).toBe('/_api/contexts/Page')
    expect(body['@id']).toBe(`/_api/_/pages/${f.page}`)
    expect(body['@type']).toBe('Page')
    expect(body.id).toBe(f.page)
    expect(body.id).toMatch(UUID)
    // The envelope comes first, as JSON-LD readers expect it.
    expect(Object.keys(body).slice(0, 4)).toEqual(['@context', '@id', '@type', 'id'])
  })

  it.each([
    ['layout', 'Layout', IRI.layout],
    ['route', 'Route', IRI.route],
    ['pageGroup', 'ComponentGroup', IRI.group],
    ['position1', 'ComponentPosition', IRI.position],
    ['html', 'HtmlContent', IRI.html],
    ['title', 'Title', IRI.title],
    ['link', 'NavigationLink', IRI.link],
    ['blog', 'BlogArticleData', IRI.blog],
  ] as const)('%s: @id is the path it was read from, @type %s, @context its own', async (key, type, iri) => {
    const body = await read(iri(f[key]!), admin)
    expect(body['@id']).toBe(iri(f[key]!))
    expect(body['@type']).toBe(type)
    expect(body['@context']).toBe(`/_api/contexts/${type}`)
    expect(body.id).toBe(f[key])
  })

  it('an upper-case UUID finds the item and answers with the canonical lower-case IRI', async () => {
    const body = await read(IRI.page(f.page!.toUpperCase()))
    expect(body['@id']).toBe(IRI.page(f.page!))
    expect(body.id).toBe(f.page)
  })

  it('never serializes Payload internals (updatedAt, _status, password fields)', async () => {
    for (const path of [IRI.page(f.page!), IRI.html(f.html!), IRI.blog(f.blog!), IRI.route(f.route!)]) {
      const body = await read(path, admin)
      for (const key of ['updatedAt', '_status', 'password', 'hash', 'salt', 'deletedAt']) {
        expect({ path, key, present: key in body }).toEqual({ path, key, present: false })
      }
    }
  })
})

describe('fields and relations', () => {
  it('Page: scalar fields, layout and componentGroups as IRIs, route (join) as one IRI', async () => {
    const body = await read(IRI.page(f.page!))
    expect(body).toMatchObject({
      title: 'Home',
      metaDescription: 'The home page',
      reference: 'home',
      uiComponent: 'HomePage',
      uiClassNames: ['is-wide', 'has-hero'],
      isTemplate: false,
      layout: IRI.layout(f.layout!),
      parentPage: null,
      parentPageData: null,
      componentGroups: [IRI.group(f.pageGroup!)],
      route: IRI.route(f.route!),
    })
  })

  it('Page: a page without a route has route null; parentPage is an IRI', async () => {
    const body = await read(IRI.page(f.childPage!))
    expect(body.route).toBeNull()
    expect(body.parentPage).toBe(IRI.page(f.page!))
    expect(body.parentPageData).toBeNull()
    expect(body.uiClassNames).toEqual([])
    expect(body.componentGroups).toEqual([])
  })

  it('Page: a polymorphic parentPageData is the IRI of the page data, under its own type', async () => {
    const body = await read(IRI.page(f.pageUnderBlog!))
    expect(body.parentPageData).toBe(IRI.blog(f.blog!))
    expect(body.parentPage).toBeNull()
  })

  it('Layout: component groups appear as bare IRIs', async () => {
    const body = await read(IRI.layout(f.layout!))
    expect(body).toMatchObject({ reference: 'main-layout', uiComponent: 'PrimaryLayout' })
    expect(body.componentGroups).toEqual([IRI.group(f.layoutGroup!)])
  })

  it('Route: page, polymorphic pageData, redirect and the routes redirecting to it', async () => {
    const home = await read(IRI.route(f.route!))
    expect(home).toMatchObject({ path: '/home', page: IRI.page(f.page!), pageData: null, redirect: null })
    expect(home.redirectedRoutes).toEqual([IRI.route(f.redirect!)])

    const blogRoute = await read(IRI.route(f.blogRoute!))
    expect(blogRoute).toMatchObject({ path: '/blog/first-post', page: null, pageData: IRI.blog(f.blog!) })

    const redirect = await read(IRI.route(f.redirect!))
    expect(redirect).toMatchObject({ path: '/old-home', page: null, pageData: null, redirect: IRI.route(f.route!) })
    expect(redirect.redirectedRoutes).toEqual([])
  })

  it('ComponentGroup: componentPositions (join) as IRIs ordered by sortValue; allowedComponents as given', async () => {
    const body = await read(IRI.group(f.pageGroup!))
    expect(body).toMatchObject({ reference: 'page-main', location: 'main' })
    expect(body.componentPositions).toEqual([IRI.position(f.position1!), IRI.position(f.position2!)])
    // No list given: null (issue 15), not [].
    expect(body.allowedComponents).toBeNull()

    const empty = await read(IRI.group(f.emptyGroup!))
    expect(empty.componentPositions).toEqual([])
    expect(empty.allowedComponents).toEqual(['/_api/component/titles'])
    expect(empty.location).toBeNull()
  })

  it('ComponentPosition: componentGroup IRI and the polymorphic component IRI of each component type', async () => {
    const first = await read(IRI.position(f.position1!))
    expect(first).toMatchObject({
      componentGroup: IRI.group(f.pageGroup!),
      component: IRI.title(f.title!),
      sortValue: 10,
      pageDataClass: null,
      pageDataProperty: null,
    })
    const second = await read(IRI.position(f.position2!))
    expect(second.component).toBe(IRI.html(f.html!))
    expect(second.sortValue).toBe(20)
  })

  it('Component: componentGroups and componentPositions (join over a polymorphic relation) as IRIs', async () => {
    const body = await read(IRI.html(f.html!), admin)
    expect(body.html).toBe('<p>Hello</p>')
    expect(body.uiComponent).toBeNull()
    expect(body.uiClassNames).toEqual([])
    expect(body.componentGroups).toEqual([IRI.group(f.componentGroup!)])
    expect([...body.componentPositions].sort()).toEqual([IRI.position(f.position2!), IRI.position(f.position3!)].sort())

    const title = await read(IRI.title(f.title!))
    expect(title.componentPositions).toEqual([IRI.position(f.position1!)])
    expect(title.componentGroups).toEqual([])
  })

  it('NavigationLink: route as IRI, url read from the route', async () => {
    const body = await read(IRI.link(f.link!), admin)
    expect(body).toMatchObject({ label: 'Home', route: IRI.route(f.route!), rawPath: null, url: '/home' })
  })

  it('PageData: template page, route (join over the polymorphic Route.pageData) and component properties as IRIs', async () => {
    const body = await read(IRI.blog(f.blog!))
    expect(body).toMatchObject({
      title: 'First post',
      metaDescription: null,
      page: IRI.page(f.template!),
      route: IRI.route(f.blogRoute!),
      parentPage: null,
      parentPageData: null,
      htmlContent: IRI.html(f.html!),
      image: null,
    })
    const child = await read(IRI.blog(f.childBlog!))
    expect(child.parentPageData).toBe(IRI.blog(f.blog!))
    expect(child.route).toBeNull()
  })

  it('every relation IRI of an item resolves to that resource', async () => {
    const page = await read(IRI.page(f.page!))
    const blog = await read(IRI.blog(f.blog!))
    const position = await read(IRI.position(f.position2!))
    const iris = [
      page.layout,
      page.route,
      ...page.componentGroups,
      blog.page,
      blog.route,
      blog.htmlContent,
      position.component,
      position.componentGroup,
    ]
    expect(iris).toHaveLength(8)
    for (const iri of iris) {
      const target = await read(iri, admin)
      expect(target['@id']).toBe(iri)
    }
  })
})

describe('timestamps', () => {
  const hasCreated = (body: Record<string, unknown>) => typeof body.createdAt === 'string' && ISO.test(body.createdAt)

  it('Layout, Page and Route show createdAt but no modifiedAt', async () => {
    for (const path of [IRI.layout(f.layout!), IRI.page(f.page!), IRI.route(f.route!)]) {
      const body = await read(path)
      expect({ path, createdAt: hasCreated(body), modifiedAt: 'modifiedAt' in body }).toEqual({
        path,
        createdAt: true,
        modifiedAt: false,
      })
    }
  })

  it('createdAt is the stored creation date', async () => {
    const stored = await server.payload.findByID({ collection: 'pages', id: f.page!, depth: 0 })
    const body = await read(IRI.page(f.page!))
    expect(body.createdAt).toBe(new Date(stored.createdAt).toISOString())
  })

  it('timestamped components (HtmlContent, Title) and page data have createdAt and modifiedAt', async () => {
    for (const path of [IRI.html(f.html!), IRI.title(f.title!), IRI.blog(f.blog!)]) {
      const body = await read(path, admin)
      expect({
        path,
        createdAt: hasCreated(body),
        modifiedAt: typeof body.modifiedAt === 'string' && ISO.test(body.modifiedAt),
      }).toEqual({
        path,
        createdAt: true,
        modifiedAt: true,
      })
    }
  })

  it('a component type that is not timestamped (NavigationLink) has neither', async () => {
    const body = await read(IRI.link(f.link!), admin)
    expect('createdAt' in body).toBe(false)
    expect('modifiedAt' in body).toBe(false)
  })

  it('built-in components: Form is timestamped, Collection is not', async () => {
    const form = await make('forms', { formType: 'ExampleFormType' })
    const formBody = await read(`/_api/component/forms/${form}`, admin)
    expect(formBody['@type']).toBe('Form')
    expect(hasCreated(formBody)).toBe(true)
    expect(typeof formBody.modifiedAt).toBe('string')
    expect(typeof formBody._metadata).toBe('object')

    const collection = await make('collections', { resourceIri: '/_api/_/pages', perPage: 5 })
    const collectionBody = await read(`/_api/component/collections/${collection}`, admin)
    expect(collectionBody).toMatchObject({
      '@type': 'Collection',
      resourceIri: '/_api/_/pages',
      perPage: 5,
      defaultQueryParameters: null,
    })
    expect('createdAt' in collectionBody).toBe(false)
    expect('modifiedAt' in collectionBody).toBe(false)
    expect(typeof collectionBody._metadata).toBe('object')
  })

  it('modifiedAt follows the last change, createdAt stays', async () => {
    const id = await make('titles', { title: 'Before' })
    const before = await read(IRI.title(id))
    // The clock has moved on since the first write, so a later modifiedAt can show.
    await waitFor(() => Date.now() > Date.parse(before.modifiedAt) + 1)
    await server.payload.update({ collection: 'titles', id, data: { title: 'After' } as never, depth: 0 })
    const after = await read(IRI.title(id))
    expect(after.title).toBe('After')
    expect(after.createdAt).toBe(before.createdAt)
    expect(Date.parse(after.modifiedAt)).toBeGreaterThan(Date.parse(before.modifiedAt))
  })
})

describe('_metadata', () => {
  it('is an object on every component', async () => {
    for (const path of [IRI.html(f.html!), IRI.title(f.title!), IRI.link(f.link!)]) {
      const body = await read(path, admin)
      expect({
        path,
        metadata: typeof body._metadata === 'object' && body._metadata !== null && !Array.isArray(body._metadata),
      }).toEqual({
        path,
        metadata: true,
      })
    }
  })

  it('is on layouts, pages, routes, groups, positions and page data too, with persisted: true (issue 15)', async () => {
    for (const path of [
      IRI.layout(f.layout!),
      IRI.page(f.page!),
      IRI.route(f.route!),
      IRI.group(f.pageGroup!),
      IRI.position(f.position1!),
      IRI.blog(f.blog!),
    ]) {
      const body = await read(path)
      expect({ path, metadata: body._metadata?.persisted }).toEqual({ path, metadata: true })
    }
  })

  it('is never stored', async () => {
    const stored = (await server.payload.findByID({ collection: 'titles', id: f.title!, depth: 0 })) as Record<
      string,
      unknown
    >
    expect('_metadata' in stored).toBe(false)
  })
})

describe('unknown items', () => {
  function expectHydra404(response: { status: number; body: any; headers: Headers }) {
    expect(response.status).toBe(404)
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    expect(response.body).toMatchObject({
      '@context': '/_api/contexts/Error',
      '@type': 'Error',
      status: 404,
      title: 'Not Found',
    })
    expect(typeof response.body.detail).toBe('string')
  }

  it.each(['abc', '123', 'not-a-uuid-at-all', `${'0'.repeat(8)}-0000-0000-0000-00000000000`, "1' OR '1'='1"])(
    'a non-UUID id (%s) is a 404 Hydra Error',
    async (id) => {
      expectHydra404(await server.get(`/_api/_/pages/${encodeURIComponent(id)}`))
    },
  )

  it('an unknown UUID is a 404 Hydra Error on every kind of resource', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    for (const path of [
      IRI.page(unknown),
      IRI.layout(unknown),
      IRI.route(unknown),
      IRI.html(unknown),
      IRI.blog(unknown),
      IRI.position(unknown),
    ]) {
      const response = await server.get(path)
      expect({ path, status: response.status }).toEqual({ path, status: 404 })
      expectHydra404(response)
    }
  })

  it('the id of another type is a 404 (an HtmlContent id under /_/pages)', async () => {
    expectHydra404(await server.get(IRI.page(f.html!)))
    expectHydra404(await server.get(IRI.blog(f.page!)))
  })

  it('a deleted item is a 404', async () => {
    const id = await make('titles', { title: 'Short-lived' })
    await read(IRI.title(id))
    await server.payload.delete({ collection: 'titles', id, depth: 0 })
    expectHydra404(await server.get(IRI.title(id)))
  })
})
