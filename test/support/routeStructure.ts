import { postFixture } from './fixtures'
import { startTestServer, type TestServer } from './server'

/** Small JSON-LD fixtures for the route structure tests (all through the HTTP API, as an admin). */
export function fixtures(server: TestServer, admin: () => string) {
  const post = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, admin())
  let n = 0
  return {
    post,
    layout: async () => (await post('/_api/_/layouts', { reference: `layout-${++n}` }))['@id'] as string,
    page: async (layout: string, extra: Record<string, unknown> = {}) =>
      (await post('/_api/_/pages', { reference: `page-${++n}`, layout, ...extra }))['@id'] as string,
    article: async (template: string, title: string, extra: Record<string, unknown> = {}) =>
      (await post('/_api/page_data/blog_article_datas', { title, page: template, ...extra }))['@id'] as string,
    route: async (path: string, target: Record<string, unknown>) =>
      (await post('/_api/_/routes', { path, ...target }))['@id'] as string,
    generate: (target: Record<string, unknown>, token = admin()) =>
      server.post('/_api/_/routes/generate', target, { token }),
    /** Every route as path -> {id, page, pageData, redirect} straight from the database. */
    async routes(): Promise<
      Map<string, { id: string; page: string | null; pageData: string | null; redirect: string | null }>
    > {
      const rows = await server.sql(
        `SELECT r.path, r.id, r.page_id, r.redirect_id, COALESCE(rr._acb_blog_article_datas_id, rr._acb_news_article_datas_id) AS page_data
         FROM _acb_routes r LEFT JOIN _acb_routes_rels rr ON rr.parent_id = r.id AND rr.path = 'pageData'`,
      )
      return new Map(
        rows.map((r) => [r.path, { id: r.id, page: r.page_id, pageData: r.page_data, redirect: r.redirect_id }]),
      )
    },
  }
}

export const idOf = (iri: string) => iri.split('/').pop()!

export interface StructureSite {
  server: TestServer
  admin: string
  f: ReturnType<typeof fixtures>
  layout: string
  template: string
}

/** What every structure test file starts from: the site, an admin, the fixtures, a layout and a template page. */
export async function startStructureSite(): Promise<StructureSite> {
  const server = await startTestServer()
  const admin = await server.tokenFor('ROLE_ADMIN')
  const f = fixtures(server, () => admin)
  const layout = await f.layout()
  const template = await f.page(layout, { title: 'Template', isTemplate: true })
  return { server, admin, f, layout, template }
}
