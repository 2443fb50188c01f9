import { sql } from '@payloadcms/db-postgres'
import type { HydraContext } from '../../hydra/context.js'
import type { EndpointResult } from '../../hydra/endpoint.js'
import { publicBaseUrl } from '../../hydra/requestUrl.js'
import type { Payload } from 'payload'
import { getOptions, getRegistry } from '../../core/registry.js'
import { escapeMarkup } from '../../core/utils/escape.js'
import { internalFind } from '../../core/utils/internalFind.js'
import { publishableOf, publishedWhere } from '../publishable/index.js'
import { chainCtes, effectiveCte } from './access/graph.js'
import { failedRules, itemPattern } from './access/rules.js'
import { runSql } from './access/tables.js'

const escapeXml = escapeMarkup

/** A route path as a URL path: unsafe characters percent-encoded, an existing escape kept. */
const encodePath = (path: string) => encodeURI(path).replace(/%25([0-9A-Fa-f]{2})/g, '%$1')

interface Row {
  path: string
  lastmod: Date | string
  slug: string
  node_id: string
}

/**
 * Routes whose target is publishable page data that is not published (a
 * draft or scheduled record: a 404 for the public) are left out. One query
 * per publishable page data type.
 */
async function withoutUnpublished(payload: Payload, rows: Row[], now: Date): Promise<Row[]> {
  const hidden = new Set<string>()
  for (const resource of getRegistry(payload.config).ofKind('pageData')) {
    const names = publishableOf(resource)
    const ids = rows.filter((r) => r.slug === resource.slug).map((r) => String(r.node_id))
    if (!names || ids.length === 0) continue
    const published = await internalFind(payload, {
      collection: resource.slug,
      where: { and: [{ id: { in: ids } }, publishedWhere(names, now)] },
      select: { id: true },
      limit: 0,
    })
    const live = new Set(published.map((d) => String(d.id)))
    for (const id of ids) if (!live.has(id)) hidden.add(`${resource.slug}:${id}`)
  }
  return rows.filter((r) => !hidden.has(`${r.slug}:${r.node_id}`))
}

/**
 * The routes of the sitemap: live now (own and inherited go-live dates, the
 * same query as every liveness decision), pointing at a page or page data
 * (no redirects), and not denied to anonymous callers by a route_security
 * rule. lastmod is the latest of the route's change, its target's change and
 * its go-live date.
 */
export async function sitemapRoutes(
  payload: Payload,
  now = new Date(),
): Promise<Array<{ path: string; lastmod: Date }>> {
  const rows = await runSql<Row>(
    payload,
    sql`WITH RECURSIVE ${chainCtes(payload)}, ${effectiveCte()}
      SELECT e.path, GREATEST(e.updated_at, n.updated_at, e.effective_live_at) AS lastmod, e.slug, e.node_id
      FROM effective e LEFT JOIN nodes n ON n.slug = e.slug AND n.id = e.node_id
      WHERE e.node_id IS NOT NULL AND e.effective_live_at <= ${now.toISOString()}::timestamptz
      ORDER BY e.path`,
  )
  const denied = failedRules(getOptions(payload.config), null).map(itemPattern)
  return (await withoutUnpublished(payload, rows, now))
    .filter((row) => !denied.some((rule) => rule.test(row.path)))
    .map((row) => ({ path: row.path, lastmod: new Date(row.lastmod) }))
}

/** GET /sitemap.xml at the site root: the sitemaps.org XML of the live site, absolute URLs on the configured origin. */
export async function sitemapXml(ctx: HydraContext, url: URL): Promise<EndpointResult> {
  const { payload } = ctx
  try {
    const origin = publicBaseUrl(payload.config.serverURL, url)
    const urls = (await sitemapRoutes(payload)).map(
      (route) =>
        `  <url><loc>${escapeXml(origin + encodePath(route.path))}</loc><lastmod>${route.lastmod.toISOString()}</lastmod></url>`,
    )
    const data = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}${urls.length ? '\n' : ''}</urlset>\n`
    return { status: 200, raw: { contentType: 'application/xml; charset=utf-8', data } }
  } catch (error) {
    payload.logger.error({ err: error }, 'sitemap.xml failed')
    return { status: 500, raw: { contentType: 'text/plain; charset=utf-8', data: 'Internal Server Error' } }
  }
}
