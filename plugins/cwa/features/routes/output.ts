import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import type { HydraContext } from '../../hydra/context.js'
import type { JsonLdObject } from '../../hydra/extension.js'
import type { Doc } from '../../hydra/store.js'
import { relationId } from '../../core/utils/relations.js'
import { ident, runSql, tableOf, uuidList } from './access/tables.js'
import { isRouteAdmin } from './fields.js'

/** Longest redirect chain followed to its final path. */
const MAX_HOPS = 16

/**
 * The final path of each redirecting route (its `redirect` followed through
 * any chain of redirects), in one query.
 */
export async function redirectPaths(
  payload: Payload,
  ids: string[],
  req?: PayloadRequest,
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const routes = ident(tableOf(payload, 'routes'))
  const rows = await runSql<{ start_id: string; path: string }>(
    payload,
    sql`WITH RECURSIVE hop(start_id, id, path, redirect_id, depth) AS (
        SELECT r.id, t.id, t.path, t.redirect_id, 1 FROM ${routes} r JOIN ${routes} t ON t.id = r.redirect_id WHERE r.id IN ${uuidList(ids)}
        UNION ALL
        SELECT h.start_id, t.id, t.path, t.redirect_id, h.depth + 1 FROM hop h JOIN ${routes} t ON t.id = h.redirect_id WHERE h.depth < ${MAX_HOPS}
      )
      SELECT DISTINCT ON (start_id) start_id, path FROM hop ORDER BY start_id, depth DESC`,
    req,
  )
  return new Map(rows.map((row) => [String(row.start_id), row.path]))
}

const REDIRECTS = 'routes:redirectPaths'

/** Loads the redirect paths of a batch of routes: one query, none when nothing redirects. */
export async function prepareRoutes(docs: Doc[], ctx: HydraContext): Promise<void> {
  const redirecting = docs.filter((doc) => relationId(doc.redirect)).map((doc) => String(doc.id))
  ctx.memo.set(REDIRECTS, await redirectPaths(ctx.payload, redirecting, ctx.req))
}

/** redirectPath for every caller; _metadata.effectiveLiveAt (stored, see access/recompute.ts) only for admins. */
export function decorateRoute(item: JsonLdObject, doc: Doc, ctx: HydraContext): void {
  const id = String(doc.id)
  item.redirectPath = (ctx.memo.get(REDIRECTS) as Map<string, string> | undefined)?.get(id) ?? null
  if (!isRouteAdmin(ctx.user, ctx.options)) return
  const metadata = { ...((item._metadata as object | undefined) ?? {}) } as Record<string, unknown>
  metadata.effectiveLiveAt = doc.effectiveLiveAt ? new Date(doc.effectiveLiveAt as string).toISOString() : null
  item._metadata = metadata
}
