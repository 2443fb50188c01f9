import { sql } from '@payloadcms/db-postgres'
import type { Payload, PayloadRequest } from 'payload'
import { soonestPublicationMoment } from '../../core/utils/publicationMoment.js'
import type { HydraContext } from '../../hydra/context.js'
import { chainCtes, effectiveCte } from './access/graph.js'
import { routeRulesAllow } from './access/rules.js'
import { ident, runSql, tableOf, uuidList } from './access/tables.js'
import { isRouteAdmin } from './fields.js'

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
export async function canSeeRoute(
  ctx: HydraContext,
  route: { id: string; path: string; effective_live_at?: Date | string | null },
  at?: Date,
): Promise<boolean> {
  if (!routeRulesAllow(ctx.options, ctx.user, route.path)) return false
  if (isRouteAdmin(ctx.user, ctx.options)) return true
  // The stored effective date (recomputed in the transaction of every write that can change it, and what the
  // routes collection's read access compares) answers in one indexed lookup, or none when the caller has it.
  const stored =
    route.effective_live_at !== undefined ? route.effective_live_at : await storedEffectiveLiveAt(ctx, route.id)
  return isLiveAt(stored, at ?? new Date())
}

/** Live at `at`: a stored effective go-live date that has come (null: never, e.g. gated by an offline ancestor). */
export function isLiveAt(effective: Date | string | null, at: Date): boolean {
  return effective !== null && new Date(effective).getTime() <= at.getTime()
}

async function storedEffectiveLiveAt(ctx: HydraContext, id: string): Promise<Date | string | null> {
  const rows = await runSql<{ at: Date | string | null }>(
    ctx.payload,
    sql`SELECT effective_live_at AS at FROM ${ident(tableOf(ctx.payload, 'routes'))} WHERE id = ${id}::uuid`,
    ctx.req,
  )
  return rows[0]?.at ?? null
}

/** nextGoLive, kept between requests (core/utils/publicationMoment.ts), as epoch ms. */
export function soonestGoLive(payload: Payload, now = new Date()): Promise<number | null> {
  return soonestPublicationMoment(payload, 'routes:next-go-live', now, () => nextGoLive(payload, undefined, now))
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
