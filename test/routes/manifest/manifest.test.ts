/**
 * GET /_/resource_manifest/{id} (service contract, "Routes" endpoints and
 * "Resource manifest rules"): one containment tree per rendering depth, root
 * first, the last rooted at the route; a layout listed once at the shallowest
 * depth; a template page listed at each depth; components' own groups to any
 * depth; dynamic positions resolved with the page data of their depth;
 * publishable components by caller; 404 when not live for the caller; a
 * fixed number of SQL queries whatever the page holds.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { startTestServer, type TestServer } from '../../support/server'
import { builder, flatten, type Node } from './manifestSite'

let server: TestServer
let admin: string
let b: ReturnType<typeof builder>
const id: Record<string, string> = {}
const I: Record<string, string> = {}

const manifest = (path: string, token?: string) =>
  server.get(`/_api/_/resource_manifest/${path.startsWith('/') ? encodeURIComponent(path) : path}`, { token })
const node = (iri: string, children: Node[] = []): Node => ({ iri, children })

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  b = builder(server.payload)
  // Layout L1 (shared by the root page and the template): group LG > position > html Hl.
  id.Hl = await b.html('<p>layout</p>')
  id.LG = await b.group('layout-group')
  id.LP = await b.position(id.LG, id.Hl)
  id.L1 = await b.layout([id.LG])
  // Root page R at /blog: group RG > position > html Hr.
  id.Hr = await b.html('<p>root</p>')
  id.RG = await b.group('root-group')
  id.RP = await b.position(id.RG, id.Hr)
  id.R = await b.page(id.L1, { componentGroups: [id.RG] })
  // Template T (layout L1): group TG > [dynamic position bound to BlogArticleData.htmlContent, static position > Ht].
  id.Ht = await b.html('<p>template</p>')
  id.TG = await b.group('template-group')
  id.TPdyn = await b.position(id.TG, null, 0, { pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' })
  id.TPstatic = await b.position(id.TG, id.Ht, 1)
  id.T = await b.page(id.L1, { isTemplate: true, componentGroups: [id.TG] })
  // Articles A1 (under R) and A2 (under A1), both rendering through T, each holding its own HtmlContent.
  id.Ha1 = await b.html('<p>a1</p>')
  id.Ha2 = await b.html('<p>a2</p>')
  id.A1 = await b.article(id.T, { parentPage: id.R, htmlContent: id.Ha1 })
  id.A2 = await b.article(id.T, { parentPageData: b.articleRef(id.A1), htmlContent: id.Ha2 })
  // Child page C under A2 (layout L2): group CG > position > Hn, whose own group NG > position > Hd (nested).
  id.Hd = await b.html('<p>deep</p>')
  id.NG = await b.group('nested-group')
  id.NP = await b.position(id.NG, id.Hd)
  id.Hn = await b.html('<p>nested</p>', { componentGroups: [id.NG] })
  id.CG = await b.group('child-group')
  id.CP = await b.position(id.CG, id.Hn)
  id.L2 = await b.layout()
  id.C = await b.page(id.L2, { parentPageData: b.articleRef(id.A2), componentGroups: [id.CG] })
  id.rR = await b.route('/blog', { page: id.R })
  id.rA1 = await b.route('/blog/a1', { pageData: b.articleRef(id.A1) })
  id.rA2 = await b.route('/blog/a1/a2', { pageData: b.articleRef(id.A2) })
  id.rC = await b.route('/blog/a1/a2/child', { page: id.C })
  id.rOld = await b.route('/old-blog', { redirect: id.rR })
  const kinds: Record<string, string> = {
    L: 'layouts',
    R: 'pages',
    T: 'pages',
    C: 'pages',
    A: 'blog_article_datas',
    H: 'html_contents',
    r: 'routes',
  }
  for (const [name, value] of Object.entries(id)) {
    const kind = name.endsWith('G')
      ? 'component_groups'
      : /P(dyn|static)?$/.test(name) && name !== 'R'
        ? 'component_positions'
        : kinds[name[0]!]!
    I[name] = b.iri(kind, value)
  }
})
afterAll(async () => {
  await server?.close()
})

/** The expected manifest of /blog/a1/a2/child, all published. */
function expected(h: Record<string, string> = I): Node[] {
  const template = (dynamic: string) =>
    node(I.T!, [node(I.TG!, [node(I.TPdyn!, [node(dynamic)]), node(I.TPstatic!, [node(h.Ht!)])])])
  return [
    node(I.R!, [node(I.L1!, [node(I.LG!, [node(I.LP!, [node(h.Hl!)])])]), node(I.RG!, [node(I.RP!, [node(h.Hr!)])])]),
    node(I.A1!, [template(h.Ha1!)]),
    node(I.A2!, [template(h.Ha2!)]),
    node(I.rC!, [
      node(I.C!, [node(I.L2!), node(I.CG!, [node(I.CP!, [node(h.Hn!, [node(I.NG!, [node(I.NP!, [node(h.Hd!)])])])])])]),
    ]),
  ]
}

describe('manifest rules', () => {
  it('lists each rendering depth, root first, the last rooted at the route (anonymous and admin alike when all is published)', async () => {
    for (const token of [undefined, admin]) {
      const response = await manifest('/blog/a1/a2/child', token)
      expect(response.status).toBe(200)
      expect(response.body).toEqual({ resource_iris: expected() })
    }
  })

  it('lists a layout shared by parent and child once, at the shallowest depth', async () => {
    const body = (await manifest('/blog/a1/a2/child')).body
    const depthsWithL1 = body.resource_iris.map((d: Node) => flatten(d).includes(I.L1!))
    expect(depthsWithL1).toEqual([true, false, false, false])
  })

  it("lists a template page shared across depths at each depth, its dynamic position holding that depth's component", async () => {
    const [, a1, a2] = (await manifest('/blog/a1/a2/child')).body.resource_iris as Node[]
    expect(flatten(a1!)).toEqual(expect.arrayContaining([I.T, I.Ha1]))
    expect(flatten(a1!)).not.toContain(I.Ha2)
    expect(flatten(a2!)).toEqual(expect.arrayContaining([I.T, I.Ha2]))
    expect(flatten(a2!)).not.toContain(I.Ha1)
  })

  it('is rooted at the route for a page data route, with the page data rendering through its template', async () => {
    const response = await manifest('/blog/a1')
    expect(response.body.resource_iris).toEqual([expected()[0], node(I.rA1!, [expected()[1]!])])
  })

  it('answers the same for the route UUID as for its path', async () => {
    const byId = await manifest(id.rC!)
    expect(byId.status).toBe(200)
    expect(byId.body).toEqual((await manifest('/blog/a1/a2/child')).body)
  })

  it('lists nothing for a redirect route (the client follows the redirect)', async () => {
    const response = await manifest('/old-blog')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ resource_iris: [] })
  })

  it('answers 404 for an unknown path or UUID and for something that is neither, never 500', async () => {
    expect((await manifest('/nope')).status).toBe(404)
    expect((await manifest('00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await server.get('/_api/_/resource_manifest/not-a-path', { token: admin })).status).toBe(404)
    expect((await server.get('/_api/_/resource_manifest/%E0%A4%A', { token: admin })).status).toBeLessThan(500)
  })
})

describe('a containment cycle', () => {
  it('stops where the cycle closes (a component placed inside its own group)', async () => {
    const group = await b.group()
    const html = await b.html('<p>loop</p>', { componentGroups: [group] })
    const position = await b.position(group, html)
    const layout = await b.layout()
    const page = await b.page(layout, { componentGroups: [group] })
    const route = await b.route('/loop', { page })
    const response = await manifest('/loop')
    expect(response.status).toBe(200)
    const g = b.iri('component_groups', group)
    // The group shows again inside the component (it is its own group), and is not followed a second time.
    expect(response.body.resource_iris).toEqual([
      node(b.iri('routes', route), [
        node(b.iri('pages', page), [
          node(b.iri('layouts', layout)),
          node(g, [node(b.iri('component_positions', position), [node(b.iri('html_contents', html), [node(g)])])]),
        ]),
      ]),
    ])
  })
})
