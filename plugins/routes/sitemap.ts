import { sql } from '@payloadcms/db-postgres'
import type { Request, Response } from 'express'
import type { Payload } from 'payload'
import { getOptions } from '../../src/hydra/registry'
import { chainCtes, effectiveCte } from './access/graph'
import { failedRules, itemPattern } from './access/rules'
import { runSql } from './access/tables'

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!)

/** A route path as a URL path: unsafe characters percent-encoded, an existing escape kept. */
const encodePath = (path: string) => encodeURI(path).replace(/%25([0-9A-Fa-f]{2})/g, '%$1')

interface Row {
  path: string
  lastmod: Date | string
}

/**
 * The routes of the sitemap: live now (own and inherited go-live dates, the
 * same query as every liveness decision), pointing at a page or page data
 * (no redirects), and not denied to anonymous callers by a route_security
 * rule. lastmod is the latest of the route's change, its target's change and
 * its go-live date.
 */
export async function sitemapRoutes(payload: Payload, now = new Date()): Promise<Array<{ path: string; lastmod: Date }>> {
  const rows = await runSql<Row>(
    payload,
    sql`WITH RECURSIVE ${chainCtes(payload)}, ${effectiveCte()}
      SELECT e.path, GREATEST(e.updated_at, n.updated_at, e.effective_live_at) AS lastmod
      FROM effective e LEFT JOIN nodes n ON n.slug = e.slug AND n.id = e.node_id
      WHERE e.node_id IS NOT NULL AND e.effective_live_at <= ${now.toISOString()}::timestamptz
      ORDER BY e.path`,
  )
  const denied = failedRules(getOptions(payload.config), null).map(itemPattern)
  return rows.filter((row) => !denied.some((rule) => rule.test(row.path))).map((row) => ({ path: row.path, lastmod: new Date(row.lastmod) }))
}

/** GET /sitemap.xml at the site root: the sitemaps.org XML of the live site, absolute URLs on the request's origin. */
export function sitemapHandler(payload: Payload) {
  return async (req: Request, response: Response) => {
    try {
      const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`
      const urls = (await sitemapRoutes(payload)).map(
        (route) => `  <url><loc>${escapeXml(origin + encodePath(route.path))}</loc><lastmod>${route.lastmod.toISOString()}</lastmod></url>`,
      )
      response
        .status(200)
        .type('application/xml; charset=utf-8')
        .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}${urls.length ? '\n' : ''}</urlset>\n`)
    } catch (error) {
      payload.logger.error({ err: error }, 'sitemap.xml failed')
      response.status(500).type('text/plain').send('Internal Server Error')
    }
  }
}
