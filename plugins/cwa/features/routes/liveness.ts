import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import type { HydraContext } from '../../hydra/context'
import { chainCtes, effectiveCte } from './access/graph'
import { routeRulesAllow } from './access/rules'
import { ident, runSql, tableOf, uuidList } from './access/tables'
import { isRouteAdmin } from './fields'

export interface RouteLiveness {
  id: string
  path: string
  liveAt: Date | null
  effectiveLiveAt: Date | null
  live: boolean
}

interface Row {
  route_id: string
  path: string
  live_at: Date | string | null
  effective_live_at: Date | string | null
}

const toDate = (value: Date | string | null): Date | null => (value === null ? null : new Date(value))

/**
 * Effective go-live of routes (all, or the given ids) as of `at` (default
 * now), in one SQL query (a recursive CTE over the page hierarchy).
 */
export async function routeLiveness(
  payload: Payload,
  options: { ids?: string[]; at?: Date; req?: PayloadRequest } = {},
): Promise<Map<string, RouteLiveness>> {
  const at = options.at ?? new Date()
  const seed = options.ids ? sql`route_id IN ${uuidList(options.ids)}` : sql`true`
  const rows = await runSql<Row>(
    payload,
    sql`WITH RECURSIVE ${chainCtes(payload, seed)}, ${effectiveCte()}
      SELECT route_id, path, live_at, effective_live_at FROM effective WHERE ${seed}`,
    options.req,
  )
  const out = new Map<string, RouteLiveness>()
  for (const row of rows) {
    const effectiveLiveAt = toDate(row.effective_live_at)
    out.set(String(row.route_id), {
      id: String(row.route_id),
      path: row.path,
      liveAt: toDate(row.live_at),
      effectiveLiveAt,
      live: effectiveLiveAt !== null && effectiveLiveAt.getTime() <= at.getTime(),
    })
  }
  return out
}

/**
 * May this caller see this route now (or at `at`)? Every route_security rule
 * whose pattern matches the path must pass (item rule: unanchored); then a
 * caller with the publish permission sees it whatever its go-live date, and
 * anyone else only when it is live (own and inherited liveAt).
 */
export async function canSeeRoute(ctx: HydraContext, route: { id: string; path: string }, at?: Date): Promise<boolean> {
  if (!routeRulesAllow(ctx.options, ctx.user, route.path)) return false
  if (isRouteAdmin(ctx.user, ctx.options)) return true
  const liveness = await routeLiveness(ctx.payload, { ids: [route.id], at, req: ctx.req })
  return liveness.get(route.id)?.live ?? false
}

/**
 * The soonest go-live date still to come among all routes (own liveAt: every
 * inherited date is some route's own), or null. Caches of anonymous
 * responses must not outlive it.
 */
export async function nextGoLive(payload: Payload, req?: PayloadRequest, now = new Date()): Promise<Date | null> {
  const rows = await runSql<{ next: Date | string | null }>(
    payload,
    sql`SELECT min(live_at) AS next FROM ${ident(tableOf(payload, 'routes'))} WHERE live_at > ${now.toISOString()}::timestamptz`,
    req,
  )
  return toDate(rows[0]?.next ?? null)
}
