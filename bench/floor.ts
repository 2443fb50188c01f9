/**
 * The physical floor of each read target: the same rows fetched with one
 * hand-written SQL statement on a raw `pg` pool (as large as the site's,
 * `jit=off` like it) and serialized with JSON.stringify by a bare node:http
 * server. No access rules, no IRIs, no content negotiation: what any API
 * over this database must at least spend. White-box: it names the reference
 * site's tables.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import pg from 'pg'

/** Positions, groups and routes a record holds, as the JSON-LD item lists them. */
const componentExtras = (alias: string) => `
  ARRAY(SELECT r.parent_id FROM _acb_component_positions_rels r WHERE r._acb_html_contents_id = ${alias}.id AND r.path = 'component') AS positions,
  ARRAY(SELECT g._acb_component_groups_id FROM _acb_html_contents_rels g WHERE g.parent_id = ${alias}.id AND g.path = 'componentGroups' ORDER BY g."order") AS groups`

/** Page data chain of a route, then the containment walk from its pages (the manifest's rows). */
const MANIFEST = `
WITH RECURSIVE chain(kind, id) AS (
  SELECT 'pages'::text, r.page_id FROM _acb_routes r WHERE r.path = $1 AND r.page_id IS NOT NULL
  UNION ALL
  SELECT n.kind, n.id FROM chain c CROSS JOIN LATERAL (
    SELECT 'pages'::text, p.parent_page_id FROM _acb_pages p WHERE c.kind = 'pages' AND p.id = c.id
    UNION ALL SELECT 'article', r._acb_blog_article_datas_id FROM _acb_pages_rels r WHERE c.kind = 'pages' AND r.parent_id = c.id AND r.path = 'parentPageData'
    UNION ALL SELECT 'pages', a.parent_page_id FROM _acb_blog_article_datas a WHERE c.kind = 'article' AND a.id = c.id
    UNION ALL SELECT 'template', a.page_id FROM _acb_blog_article_datas a WHERE c.kind = 'article' AND a.id = c.id
    UNION ALL SELECT 'html', a.html_content_id FROM _acb_blog_article_datas a WHERE c.kind = 'article' AND a.id = c.id
  ) n(kind, id) WHERE n.id IS NOT NULL
), walk(kind, id, ord) AS (
  SELECT CASE WHEN kind = 'template' THEN 'pages' ELSE kind END, id, 0::numeric FROM chain WHERE kind <> 'article'
  UNION ALL
  SELECT e.kind, e.id, e.ord FROM walk w CROSS JOIN LATERAL (
    SELECT 'layouts'::text, p.layout_id, 0::numeric FROM _acb_pages p WHERE w.kind = 'pages' AND p.id = w.id
    UNION ALL SELECT 'groups', r._acb_component_groups_id, r."order" FROM _acb_pages_rels r WHERE w.kind = 'pages' AND r.parent_id = w.id AND r.path = 'componentGroups'
    UNION ALL SELECT 'groups', r._acb_component_groups_id, r."order" FROM _acb_layouts_rels r WHERE w.kind = 'layouts' AND r.parent_id = w.id AND r.path = 'componentGroups'
    UNION ALL SELECT 'positions', p.id, p.sort_value FROM _acb_component_positions p WHERE w.kind = 'groups' AND p.component_group_id = w.id
    UNION ALL SELECT 'html', r._acb_html_contents_id, 0 FROM _acb_component_positions_rels r WHERE w.kind = 'positions' AND r.parent_id = w.id AND r.path = 'component'
    UNION ALL SELECT 'groups', r._acb_component_groups_id, r."order" FROM _acb_html_contents_rels r WHERE w.kind = 'html' AND r.parent_id = w.id AND r.path = 'componentGroups'
  ) e(kind, id, ord) WHERE e.id IS NOT NULL
)
SELECT kind, id, ord FROM walk`

const ROUTES: Record<string, (q: URLSearchParams) => { text: string; values: unknown[]; one?: boolean }> = {
  '/page': (q) => ({
    text: `SELECT to_jsonb(p) AS row, (SELECT r.id FROM _acb_routes r WHERE r.page_id = p.id) AS route,
      ARRAY(SELECT g._acb_component_groups_id FROM _acb_pages_rels g WHERE g.parent_id = p.id AND g.path = 'componentGroups' ORDER BY g."order") AS groups
      FROM _acb_pages p WHERE p.id = $1`,
    values: [q.get('id')],
    one: true,
  }),
  '/component': (q) => ({
    text: `SELECT to_jsonb(c) AS row, ${componentExtras('c')} FROM _acb_html_contents c WHERE c.id = $1`,
    values: [q.get('id')],
    one: true,
  }),
  '/components': (q) => ({
    text: `SELECT to_jsonb(c) AS row, ${componentExtras('c')}, count(*) OVER () AS total FROM _acb_html_contents c ORDER BY c.created_at DESC LIMIT $1`,
    values: [Number(q.get('limit') ?? 30)],
  }),
  '/route': (q) => ({
    text: `SELECT to_jsonb(r) AS row, ARRAY(SELECT x.id FROM _acb_routes x WHERE x.redirect_id = r.id) AS redirected FROM _acb_routes r
      WHERE r.path = $1 AND r.effective_live_at <= now()`,
    values: [q.get('path')],
    one: true,
  }),
  '/routes': (q) => ({
    text: `SELECT to_jsonb(r) AS row, count(*) OVER () AS total FROM _acb_routes r WHERE r.effective_live_at <= now() ORDER BY r.created_at DESC LIMIT $1`,
    values: [Number(q.get('limit') ?? 30)],
  }),
  '/manifest': (q) => ({ text: MANIFEST, values: [q.get('path')] }),
}

export interface Floor {
  url: string
  close(): Promise<void>
}

export async function startFloor(databaseUrl: string): Promise<Floor> {
  const pool = new pg.Pool({ connectionString: databaseUrl, options: '-c jit=off', max: 10 })
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor')
    const route = ROUTES[url.pathname]
    if (!route) {
      res.writeHead(404).end()
      return
    }
    const { text, values, one } = route(url.searchParams)
    pool.query(text, values).then(
      ({ rows }) => {
        if (one && rows.length === 0) return void res.writeHead(404).end()
        const body = JSON.stringify(one ? rows[0] : rows)
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
      },
      (error: Error) => res.writeHead(500).end(error.message),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      await pool.end()
    },
  }
}
