/**
 * Issue 39, payload-cwa/client: `client.page(path)` resolves a route of the demo site to everything needed to
 * render it, in two sequential rounds of reads (the route and its manifest at once, then every resource the
 * manifest lists at once), over real HTTP and through the API's Fetch handler in the same process (no socket).
 * What it returns is what the JSON-LD API answers, resource by resource; errors are values.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import {
  blocksOf,
  createCwaClient,
  groupOf,
  type CwaClient,
  type CwaResolvedPage,
} from '../../plugins/cwa/dist/client.js'
import { ROUTE_PATHS_TAG, routePathTag } from '../../plugins/cwa/dist/features/routes/pathTags.js'
import { createCwaHandler } from '../../plugins/cwa/dist/server/handler.js'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer
let client: CwaClient

beforeAll(async () => {
  server = await startTestServer()
  await seedDemo(server.payload, { apiPrefix: '/_api' })
  client = createCwaClient({ apiUrl: `${server.url}/_api` })
})
afterAll(() => server?.close())

async function resolved(path: string, on: CwaClient = client): Promise<CwaResolvedPage> {
  const result = await on.page(path)
  if (result.kind !== 'page') throw new Error(`${path}: ${JSON.stringify(result)}`)
  return result
}

/** The hub URL of a Link header, read by hand. */
const hubOf = (link: string | null) => /<([^>]+)>; rel="mercure"/.exec(link ?? '')?.[1] ?? null

/** The text a block shows: a title's, or a rich text's html. */
const textOf = (component: Record<string, unknown>) => component.title ?? component.html ?? component['@type']

describe('client.page(path)', () => {
  it('resolves the home page in two rounds: the route and its manifest, then every resource the manifest lists', async () => {
    const home = await resolved('/')
    expect(home.route.path).toBe('/')
    expect(home.page.title).toBe('Home')
    expect(home.layout?.['@type']).toBe('Layout')
    expect(home.reads.rounds).toBe(2)
    // The route, the manifest, then one read per resource of the page (none twice).
    const manifest = (await server.get('/_api/_/resource_manifest//')).body
    const listed = new Set<string>()
    const walk = (node: { iri: string; children: unknown[] }) => {
      listed.add(node.iri)
      node.children.forEach((child) => walk(child as never))
    }
    manifest.resource_iris.forEach(walk)
    expect(home.reads.requests).toBe(2 + [...listed].filter((iri) => iri !== home.route['@id']).length)
    expect(home.unavailable).toEqual([])

    const blocks = blocksOf(home, groupOf(home, home.page, 'home_main'))
    expect(blocks.map(({ component }) => component['@type'])).toEqual(['Title', 'HtmlContent', 'Image'])
    expect(blocks.map(({ component }) => textOf(component)).slice(0, 2)).toEqual([
      'Welcome',
      '<p>This site is served by payload-cwa.</p>',
    ])
    const header = blocksOf(home, groupOf(home, home.layout!, 'primary_top'))
    expect(header.map(({ component }) => component['@type'])).toEqual([
      'NavigationLink',
      'NavigationLink',
      'NavigationLink',
    ])
    // Each resource is the API's own answer for it.
    for (const { component, position } of [...blocks, ...header]) {
      expect((await server.get(component['@id'])).body).toEqual(component)
      expect((await server.get(position['@id'], { headers: { path: '/' } })).body).toEqual(position)
    }
    // The image comes with its files (absolute URLs, variants included).
    const image = blocks[2]!.component
    expect(image._metadata?.mediaObjects?.file?.[0]?.contentUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_api\//)
  })

  it('resolves an article through its template page, its dynamic position holding the article’s own text', async () => {
    const article = await resolved('/blog/first-article')
    expect(article.pageData?.title).toBe('First article')
    expect(article.page.isTemplate).toBe(true)
    // The third: the routes of the articles the blog lists (the blog page is the article's parent, in its manifest).
    expect(article.reads.rounds).toBe(3)
    const [block] = blocksOf(article, groupOf(article, article.page, 'blog_article_main'))
    expect(block?.position.pageDataProperty).toBe('htmlContent')
    expect(block?.component.html).toBe('<p>The first article of the demo blog.</p>')
    const second = await resolved('/blog/second-article')
    expect(blocksOf(second, groupOf(second, second.page, 'blog_article_main'))[0]?.component.html).toBe(
      '<p>The second article of the demo blog.</p>',
    )
  })

  it('resolves every demo page in at most three sequential rounds of reads (issue 39’s goal)', async () => {
    for (const path of ['/', '/blog', '/blog/first-article', '/blog/second-article', '/contact']) {
      const { reads } = await resolved(path)
      expect({ path, within: reads.rounds <= 3 }).toEqual({ path, within: true })
    }
  })

  it('gathers the cache tags of its answers (every resource shown, the path’s own), and no hub when none is announced', async () => {
    const article = await resolved('/blog/first-article')
    for (const iri of Object.keys(article.resources)) expect(article.tags).toContain(iri)
    expect(article.tags).toEqual(expect.arrayContaining([routePathTag('/blog/first-article'), ROUTE_PATHS_TAG]))
    // Names of the API's own tag header only: the manifest's answer lists the layout's navigation links too.
    const manifest = await fetch(`${server.url}/_api/_/resource_manifest/%2Fblog%2Ffirst-article`)
    for (const tag of manifest.headers.get('xkey')!.split(' ')) expect(article.tags).toContain(tag)
    // This server announces no hub (the tests' default); the website's test reads the embedded hub's (test/site/preview).
    expect(article.hub).toBe(hubOf(manifest.headers.get('link')))
    expect(article.hub).toBeNull()
    const tagless = createCwaClient({ apiUrl: `${server.url}/_api`, tagHeader: 'x-none' })
    const plain = await tagless.page('/blog/first-article')
    expect(plain.kind === 'page' && plain.tags.length).toBeLessThan(article.tags.length)
  })

  it('gives the same page through the Fetch handler in the same process (no socket) as over HTTP', async () => {
    const handler = createCwaHandler({ payload: server.payload })
    let calls = 0
    const inProcess = createCwaClient({
      apiUrl: `${server.url}/_api`,
      fetch: (input, init) => {
        calls++
        return handler(new Request(input, init))
      },
    })
    for (const path of ['/contact', '/blog/first-article']) {
      calls = 0
      const [overHttp, direct] = [await resolved(path), await resolved(path, inProcess)]
      expect(direct.resources).toEqual(overHttp.resources)
      expect(calls).toBe(direct.reads.requests)
    }
  })

  it('answers an unknown path as not-found, a moved one as a redirect, and an unreachable API as a network error', async () => {
    expect(await client.page('/no/such/page')).toEqual({
      kind: 'not-found',
      path: '/no/such/page',
      tags: [routePathTag('/no/such/page'), ROUTE_PATHS_TAG],
    })
    const admin = await server.tokenFor('ROLE_ADMIN')
    const moved = await server.patch('/_api/_/routes/%2Fcontact', { path: '/contact-us' }, { token: admin })
    expect(moved.status).toBe(200)
    expect(await client.page('/contact')).toMatchObject({ kind: 'redirect', path: '/contact', location: '/contact-us' })
    expect((await resolved('/contact-us')).page.title).toBe('Contact')
    const nowhere = createCwaClient({ apiUrl: 'http://127.0.0.1:9/_api' })
    const result = await nowhere.page('/')
    expect(result.kind).toBe('error')
    expect(result.kind === 'error' && result.error.kind).toBe('network')
  })

  it('still resolves the page when the manifest fails, reading level by level from the route', async () => {
    const withoutManifest = createCwaClient({
      apiUrl: `${server.url}/_api`,
      fetch: (input, init) =>
        input.includes('/resource_manifest/') ? Promise.reject(new Error('manifest down')) : fetch(input, init),
    })
    const [full, walked] = [await resolved('/'), await resolved('/', withoutManifest)]
    expect(walked.resources).toEqual(full.resources)
    expect(walked.reads.rounds).toBeGreaterThan(2)
  })

  it('shows a signed-in editor the draft of a block, and anonymous callers the published text', async () => {
    const admin = await server.tokenFor('ROLE_ADMIN')
    const home = await resolved('/')
    const text = blocksOf(home, groupOf(home, home.page, 'home_main'))[1]!.component
    const draft = await server.patch(text['@id'], { html: '<p>A draft nobody sees yet.</p>' }, { token: admin })
    expect(draft.status).toBe(200)
    const editor = createCwaClient({
      apiUrl: `${server.url}/_api`,
      headers: () => ({ cookie: `api_component=${admin}` }),
    })
    const asEditor = await resolved('/', editor)
    const asVisitor = await resolved('/')
    const shown = (page: CwaResolvedPage) => blocksOf(page, groupOf(page, page.page, 'home_main'))[1]!.component.html
    expect(shown(asEditor)).toBe('<p>A draft nobody sees yet.</p>')
    expect(shown(asVisitor)).toBe('<p>This site is served by payload-cwa.</p>')
  })
})

describe('client.submitForm', () => {
  it('gives the violations per field as a value, then the form on a valid submit', async () => {
    const contact = await resolved('/contact-us').catch(() => resolved('/contact'))
    const form = blocksOf(contact, groupOf(contact, contact.page, 'contact_main'))[0]!.component
    expect(form['@type']).toBe('Form')
    const refused = await client.submitForm(form, { email: 'not an address' })
    expect(refused.ok).toBe(false)
    if (refused.ok || refused.error.kind !== 'http') throw new Error('expected a 422')
    expect(refused.error.status).toBe(422)
    expect(refused.error.violations.map((violation) => violation.propertyPath)).toContain('email')
    const partial = await client.submitForm(form, { email: 'someone@example.com' }, { partial: true })
    expect(partial.ok).toBe(true)
  })
})
