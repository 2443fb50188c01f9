import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import jsonld from 'jsonld'
import { getRegistry } from '../../plugins/cwa/dist/core/registry.js'
import { startTestServer, type TestServer } from '../support/server'

/**
 * JSON-LD contexts (issue 2, "Hydra JSON-LD layer": `GET /_api/contexts/{Type}`
 * serves each context; contexts must be valid JSON-LD, checked by expanding
 * served resources with a JSON-LD processor). Every context URL is fetched
 * from the test server by the document loader; nothing goes to the network.
 */

let server: TestServer
let admin: string
let vocab: string

const HYDRA = 'http://www.w3.org/ns/hydra/core#'
const XSD = 'http://www.w3.org/2001/XMLSchema#'

/** Every type the reference deployment serves (contract + reference-deployment.md). */
const TYPES = [
  'SiteConfigParameter',
  'Layout',
  'Page',
  'Route',
  'ComponentGroup',
  'ComponentPosition',
  'HtmlContent',
  'Image',
  'NavigationLink',
  'Title',
  'FileDownload',
  'Collection',
  'Form',
  'BlogArticleData',
  'NewsArticleData',
  'User',
]

const f: Record<string, string> = {}

async function make(collection: string, data: Record<string, unknown>): Promise<string> {
  const doc = await server.payload.create({ collection: collection as never, data: data as never, depth: 0 })
  return String(doc.id)
}

/** URLs the document loader was asked for. */
const loaded: string[] = []

/** Resolves context URLs against the test server only. */
async function documentLoader(url: string) {
  if (!url.startsWith(`${server.url}/`))
    throw new Error(`The test document loader refuses ${url}: contexts must come from the server`)
  loaded.push(url)
  const response = await fetch(url, { headers: { accept: 'application/ld+json' } })
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`)
  return { contextUrl: undefined, documentUrl: url, document: await response.json() }
}

type Expanded = Record<string, any>

/** GETs a path and expands the body with jsonld, the request URL as base. */
async function expand(
  path: string,
  { token, status = 200 }: { token?: string; status?: number } = {},
): Promise<{ body: any; expanded: Expanded[] }> {
  const response = await server.get(path, { token })
  expect({ path, status: response.status }).toEqual({ path, status })
  const expanded = (await jsonld.expand(response.body, {
    base: `${server.url}${path}`,
    documentLoader,
  } as never)) as unknown as Expanded[]
  return { body: response.body, expanded }
}

const abs = (path: string) => `${server.url}${path}`
const values = (node: Expanded, iri: string) =>
  (node[iri] ?? []).map((v: { '@value'?: unknown; '@id'?: string }) => v['@value'] ?? v['@id'])

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  vocab = `${server.url}/_api/docs.jsonld#`

  f.layout = await make('layouts', { reference: 'ctx-layout' })
  f.group = await make('component_groups', { reference: 'ctx-group', location: 'main' })
  f.page = await make('pages', {
    reference: 'ctx-page',
    title: 'Context page',
    layout: f.layout,
    componentGroups: [f.group],
    uiClassNames: ['wide'],
  })
  f.html = await make('html_contents', { html: '<p>ctx</p>' })
  f.position = await make('component_positions', {
    componentGroup: f.group,
    component: { relationTo: 'html_contents', value: f.html },
    sortValue: 3,
  })
  f.route = await make('routes', { path: '/ctx', page: f.page })
  f.blog = await make('blog_article_datas', { title: 'Context post', page: f.page, htmlContent: f.html })
  f.blogRoute = await make('routes', {
    path: '/ctx/post',
    pageData: { relationTo: 'blog_article_datas', value: f.blog },
  })
  f.collection = await make('collections', {
    resourceIri: '/_api/_/pages',
    perPage: 5,
    defaultQueryParameters: { order: { createdAt: 'desc' } },
  })
  f.link = await make('navigation_links', { label: 'Ctx', route: f.route })
})
afterAll(async () => {
  await server?.close()
})

describe('GET /_api/contexts/{Type}', () => {
  it('the registry serves exactly the reference types', () => {
    const names = getRegistry(server.payload.config)
      .all()
      .map((r) => r.meta.shortName)
    expect([...names].sort()).toEqual([...TYPES].sort())
  })

  it.each(TYPES)('%s: a JSON-LD 1.1 context in the API vocabulary, mapping every serialized property', async (type) => {
    const response = await server.get(`/_api/contexts/${type}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    const context = response.body['@context']
    expect(context['@version']).toBe(1.1)
    expect(context['@vocab']).toBe(vocab)
    expect(context.hydra).toBe(HYDRA)
    expect(context.member).toMatchObject({ '@id': 'hydra:member' })
    expect(context.totalItems).toMatchObject({ '@id': 'hydra:totalItems' })
    expect(context.view).toMatchObject({ '@id': 'hydra:view' })
    expect(context[type]).toBe(type)

    const resource = getRegistry(server.payload.config).byShortName(type)!
    const { outputFields } = await import('../../plugins/cwa/dist/hydra/item.js')
    for (const { field, json } of outputFields(resource)) {
      const term = context[json]
      const iri = typeof term === 'string' ? term : term?.['@id']
      expect({ type, json, iri }).toEqual({ type, json, iri: `${type}/${json}` })
      if (field.type === 'relationship' || field.type === 'upload' || field.type === 'join') {
        expect({ type, json, kind: term['@type'] }).toEqual({ type, json, kind: '@id' })
      }
    }
    expect(context.createdAt).toMatchObject({ '@type': 'xsd:dateTime' })
  })

  it.each(['Entrypoint', 'Error', 'ConstraintViolation'])('%s is served', async (type) => {
    const response = await server.get(`/_api/contexts/${type}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/ld\+json/)
    expect(response.body['@context']['@vocab']).toBe(vocab)
  })

  it('the Entrypoint context types every collection link as an IRI', async () => {
    const context = (await server.get('/_api/contexts/Entrypoint')).body['@context']
    expect(context.page).toEqual({ '@id': 'Entrypoint/page', '@type': '@id' })
    expect(context.blogArticleData).toEqual({ '@id': 'Entrypoint/blogArticleData', '@type': '@id' })
  })

  it('accepts the .jsonld suffix', async () => {
    const plain = await server.get('/_api/contexts/Page')
    const suffixed = await server.get('/_api/contexts/Page.jsonld')
    expect(suffixed.status).toBe(200)
    expect(suffixed.body).toEqual(plain.body)
  })

  it('an unknown type is a 404 Hydra Error', async () => {
    const response = await server.get('/_api/contexts/NoSuchType')
    expect(response.status).toBe(404)
    expect(response.body).toMatchObject({ '@type': 'Error', status: 404 })
  })

  it('the @context of every kind of response points at a served context', async () => {
    const bodies = [
      (await server.get('/_api/')).body,
      (await server.get(`/_api/_/pages/${f.page}`)).body,
      (await server.get('/_api/_/routes')).body,
      (await server.get('/_api/_/pages/nope')).body,
      (await server.get('/_api/_/pages?order[createdAt]=up')).body,
      (await server.get(`/_api/component/html_contents/${f.html}`, { token: admin })).body,
    ]
    for (const body of bodies) {
      const context = Array.isArray(body['@context']) ? body['@context'][0] : body['@context']
      expect(context).toMatch(/^\/_api\/contexts\/[A-Za-z]+$/)
      expect((await server.get(context)).status).toBe(200)
    }
  })
})

describe('expanding served documents with a JSON-LD processor', () => {
  it('a Page item: @id absolute, @type and properties in the API vocabulary, relations as IRIs', async () => {
    const path = `/_api/_/pages/${f.page}`
    const { expanded } = await expand(path)
    expect(expanded).toHaveLength(1)
    const page = expanded[0]!
    expect(page['@id']).toBe(abs(path))
    expect(page['@type']).toEqual([`${vocab}Page`])
    expect(page[`${vocab}Page/title`]).toEqual([{ '@value': 'Context page' }])
    expect(values(page, `${vocab}Page/reference`)).toEqual(['ctx-page'])
    expect(values(page, `${vocab}Page/id`)).toEqual([f.page])
    expect(values(page, `${vocab}Page/isTemplate`)).toEqual([false])
    expect(values(page, `${vocab}Page/uiClassNames`)).toEqual(['wide'])
    expect(page[`${vocab}Page/layout`]).toEqual([{ '@id': abs(`/_api/_/layouts/${f.layout}`) }])
    expect(page[`${vocab}Page/componentGroups`]).toEqual([{ '@id': abs(`/_api/_/component_groups/${f.group}`) }])
    expect(page[`${vocab}Page/route`]).toEqual([{ '@id': abs(`/_api/_/routes/${f.route}`) }])
    expect(page[`${vocab}Page/createdAt`]).toEqual([{ '@type': `${XSD}dateTime`, '@value': expect.any(String) }])
    // Nothing escaped the vocabulary: every property is an absolute IRI of the API docs.
    for (const key of Object.keys(page).filter((k) => !k.startsWith('@')))
      expect(key.startsWith(`${vocab}Page/`)).toBe(true)
    expect(loaded).toContain(abs('/_api/contexts/Page'))
  })

  it('a collection: hydra:Collection, member, totalItems and a view whose links resolve against the document URL', async () => {
    const path = '/_api/_/pages?itemsPerPage=1'
    await make('pages', { reference: 'ctx-second', layout: f.layout })
    const { expanded } = await expand(path)
    const collection = expanded[0]!
    expect(collection['@id']).toBe(abs('/_api/_/pages'))
    expect(collection['@type']).toEqual([`${HYDRA}Collection`])
    expect(collection[`${HYDRA}totalItems`]).toEqual([{ '@type': `${XSD}integer`, '@value': 2 }])
    const members = collection[`${HYDRA}member`]
    expect(members).toHaveLength(1)
    expect(members[0]['@id']).toMatch(new RegExp(`^${abs('/_api/_/pages/')}[0-9a-f-]{36}$`))
    expect(members[0]['@type']).toEqual([`${vocab}Page`])
    const [view] = collection[`${HYDRA}view`]
    expect(view['@id']).toBe(abs('/_api/_/pages?itemsPerPage=1&page=1'))
    expect(view['@type']).toEqual([`${HYDRA}PartialCollectionView`])
    expect(view[`${HYDRA}first`]).toEqual([{ '@id': abs('/_api/_/pages?itemsPerPage=1&page=1') }])
    expect(view[`${HYDRA}last`]).toEqual([{ '@id': abs('/_api/_/pages?itemsPerPage=1&page=2') }])
    expect(view[`${HYDRA}next`]).toEqual([{ '@id': abs('/_api/_/pages?itemsPerPage=1&page=2') }])
    expect(view[`${HYDRA}previous`]).toBeUndefined()
  })

  it('an empty collection keeps its member set', async () => {
    const { expanded } = await expand('/_api/_/routes?search=no-such-route')
    expect(expanded[0]![`${HYDRA}member`]).toEqual([])
    expect(expanded[0]![`${HYDRA}totalItems`]).toEqual([{ '@type': `${XSD}integer`, '@value': 0 }])
  })

  it('a component: _metadata is a JSON literal, positions and groups are IRIs, modifiedAt a dateTime', async () => {
    const { expanded } = await expand(`/_api/component/html_contents/${f.html}`, { token: admin })
    const html = expanded[0]!
    expect(html['@type']).toEqual([`${vocab}HtmlContent`])
    expect(values(html, `${vocab}HtmlContent/html`)).toEqual(['<p>ctx</p>'])
    expect(html[`${vocab}HtmlContent/_metadata`]).toEqual([{ '@type': '@json', '@value': expect.any(Object) }])
    expect(html[`${vocab}HtmlContent/componentPositions`]).toEqual([
      { '@id': abs(`/_api/_/component_positions/${f.position}`) },
    ])
    expect(html[`${vocab}HtmlContent/modifiedAt`]).toEqual([
      { '@type': `${XSD}dateTime`, '@value': expect.any(String) },
    ])
  })

  it('polymorphic relations (Route.pageData, ComponentPosition.component) expand to the target IRI', async () => {
    const route = (await expand(`/_api/_/routes/${f.blogRoute}`)).expanded[0]!
    expect(route[`${vocab}Route/pageData`]).toEqual([{ '@id': abs(`/_api/page_data/blog_article_datas/${f.blog}`) }])
    expect(values(route, `${vocab}Route/path`)).toEqual(['/ctx/post'])
    const position = (await expand(`/_api/_/component_positions/${f.position}`)).expanded[0]!
    expect(position[`${vocab}ComponentPosition/component`]).toEqual([
      { '@id': abs(`/_api/component/html_contents/${f.html}`) },
    ])
    expect(values(position, `${vocab}ComponentPosition/sortValue`)).toEqual([3])
  })

  it('page data: properties of the type and of the base in the vocabulary of the type', async () => {
    const blog = (await expand(`/_api/page_data/blog_article_datas/${f.blog}`)).expanded[0]!
    expect(blog['@type']).toEqual([`${vocab}BlogArticleData`])
    expect(values(blog, `${vocab}BlogArticleData/title`)).toEqual(['Context post'])
    expect(blog[`${vocab}BlogArticleData/htmlContent`]).toEqual([
      { '@id': abs(`/_api/component/html_contents/${f.html}`) },
    ])
    expect(blog[`${vocab}BlogArticleData/page`]).toEqual([{ '@id': abs(`/_api/_/pages/${f.page}`) }])
    expect(blog[`${vocab}BlogArticleData/route`]).toEqual([{ '@id': abs(`/_api/_/routes/${f.blogRoute}`) }])
  })

  it('the entrypoint: every collection link is an absolute IRI', async () => {
    const { expanded } = await expand('/_api/')
    const entrypoint = expanded[0]!
    expect(entrypoint['@id']).toBe(abs('/_api'))
    expect(entrypoint['@type']).toEqual([`${vocab}Entrypoint`])
    expect(entrypoint[`${vocab}Entrypoint/page`]).toEqual([{ '@id': abs('/_api/_/pages') }])
    expect(entrypoint[`${vocab}Entrypoint/blogArticleData`]).toEqual([
      { '@id': abs('/_api/page_data/blog_article_datas') },
    ])
  })

  it('an Error body: one @type (hydra:Error), its status, title and description', async () => {
    const { body, expanded } = await expand('/_api/_/pages/nope', { status: 404 })
    expect(body.type).toBeDefined() // the body's own `type` must not be read as a second @type
    const error = expanded[0]!
    expect(error['@type']).toEqual([`${HYDRA}Error`])
    expect(values(error, `${HYDRA}statusCode`)).toEqual([404])
    expect(values(error, `${HYDRA}title`)).toEqual(['Not Found'])
    expect(values(error, `${HYDRA}description`)).toEqual([body.description])
    // `type` is a URI reference (RFC 7807), resolved like every other IRI.
    expect(error[`${vocab}Error/type`]).toEqual([{ '@id': new URL(body.type, abs('/_api/_/pages/nope')).href }])
  })

  it('a ConstraintViolation body: its type and the violations as a JSON literal', async () => {
    const { body, expanded } = await expand('/_api/_/pages?order[createdAt]=up', { status: 422 })
    const violation = expanded[0]!
    expect(violation['@type']).toEqual([`${vocab}ConstraintViolation`])
    expect(values(violation, `${HYDRA}statusCode`)).toEqual([422])
    expect(violation[`${vocab}ConstraintViolation/violations`]).toEqual([
      { '@type': '@json', '@value': body.violations },
    ])
  })

  it('the Collection component: an item is typed with the component class, its collection with hydra:Collection', async () => {
    const item = (await expand(`/_api/component/collections/${f.collection}`, { token: admin })).expanded[0]!
    expect(item['@type']).toEqual([`${vocab}Collection`])
    expect(values(item, `${vocab}Collection/resourceIri`)).toEqual(['/_api/_/pages'])
    expect(item[`${vocab}Collection/defaultQueryParameters`]).toEqual([
      { '@type': '@json', '@value': { order: { createdAt: 'desc' } } },
    ])

    const { body, expanded } = await expand('/_api/component/collections', { token: admin })
    expect(body['@type']).toBe('Collection')
    expect(body.member[0]['@type']).toBe('Collection')
    const collection = expanded[0]!
    expect(collection['@type']).toEqual([`${HYDRA}Collection`])
    expect(collection[`${HYDRA}member`].map((m: Expanded) => m['@type'])).toEqual([[`${vocab}Collection`]])
    expect(collection[`${HYDRA}view`][0]['@type']).toEqual([`${HYDRA}PartialCollectionView`])
  })

  it('the current user (/me): roles and username in the User vocabulary', async () => {
    const token = await server.tokenFor('ROLE_SUPER_ADMIN')
    const { body, expanded } = await expand('/_api/me', { token })
    const user = expanded[0]!
    expect(user['@id']).toBe(abs(body['@id']))
    expect(user['@type']).toEqual([`${vocab}User`])
    expect(values(user, `${vocab}User/roles`)).toEqual(
      expect.arrayContaining(['ROLE_SUPER_ADMIN', 'ROLE_ADMIN', 'ROLE_USER']),
    )
    expect(values(user, `${vocab}User/username`)).toEqual([body.username])
  })

  it('every resource collection and one item of each seeded type expand without error', async () => {
    const registry = getRegistry(server.payload.config)
    for (const resource of registry.all().filter((r) => r.meta.kind !== 'user')) {
      const { expanded } = await expand(resource.collectionIri, { token: admin })
      expect({ type: resource.meta.shortName, collection: expanded[0]!['@type'] }).toEqual({
        type: resource.meta.shortName,
        collection: [`${HYDRA}Collection`],
      })
      for (const member of expanded[0]![`${HYDRA}member`]) {
        expect({ type: resource.meta.shortName, member: member['@type'] }).toEqual({
          type: resource.meta.shortName,
          member: [`${vocab}${resource.meta.shortName}`],
        })
      }
    }
    const link = (await expand(`/_api/component/navigation_links/${f.link}`, { token: admin })).expanded[0]!
    expect(link[`${vocab}NavigationLink/route`]).toEqual([{ '@id': abs(`/_api/_/routes/${f.route}`) }])
    expect(values(link, `${vocab}NavigationLink/url`)).toEqual(['/ctx'])
  })
})
