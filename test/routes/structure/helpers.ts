import type { TestServer } from '../../support/server'

/** Small JSON-LD fixtures for the route structure tests (all through the HTTP API, as an admin). */
export function fixtures(server: TestServer, admin: () => string) {
  async function post(path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await server.post(path, body, { token: admin() })
    if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${response.text}`)
    return response.body
  }
  let n = 0
  return {
    post,
    layout: async () => (await post('/_api/_/layouts', { reference: `layout-${++n}` }))['@id'] as string,
    page: async (layout: string, extra: Record<string, unknown> = {}) =>
      (await post('/_api/_/pages', { reference: `page-${++n}`, layout, ...extra }))['@id'] as string,
    article: async (template: string, title: string, extra: Record<string, unknown> = {}) =>
      (await post('/_api/page_data/blog_article_datas', { title, page: template, ...extra }))['@id'] as string,
    route: async (path: string, target: Record<string, unknown>) => (await post('/_api/_/routes', { path, ...target }))['@id'] as string,
    generate: (target: Record<string, unknown>, token = admin()) => server.post('/_api/_/routes/generate', target, { token }),
    /** Every route as path -> {id, page, pageData, redirect} straight from the database. */
    async routes(): Promise<Map<string, { id: string; page: string | null; pageData: string | null; redirect: string | null }>> {
      const rows = await server.sql(
        `SELECT r.path, r.id, r.page_id, r.redirect_id, COALESCE(rr._acb_blog_article_datas_id, rr._acb_news_article_datas_id) AS page_data
         FROM _acb_routes r LEFT JOIN _acb_routes_rels rr ON rr.parent_id = r.id AND rr.path = 'pageData'`,
      )
      return new Map(rows.map((r) => [r.path, { id: r.id, page: r.page_id, pageData: r.page_data, redirect: r.redirect_id }]))
    },
  }
}

export const idOf = (iri: string) => iri.split('/').pop()!
