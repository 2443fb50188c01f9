import type { Payload } from 'payload'
import type { HydraContext } from '../../hydra/context.js'
import type { CollectionQuery } from '../../hydra/filters.js'
import { type ItemStore, withTotal } from '../../hydra/store.js'
import { type CountedTable, installRowCounts, maintainedCounts } from '../../core/utils/rowCounts.js'
import { columnNameOf, tableNameOf } from '../../core/utils/schema.js'

/** The routes table as the maintained row counts see it (core/utils/rowCounts.ts): live from its stored effective go-live date. */
function routesTable(payload: Payload): CountedTable | null {
  const table = tableNameOf(payload, 'routes')
  const dated = columnNameOf(payload, 'routes', 'effectiveLiveAt')
  return table && dated ? { table, dated, twin: null } : null
}

/** The routes feature's onSchemaReady: the routes table's counts. */
export function installRouteCounts(payload: Payload): Promise<void> {
  const table = routesTable(payload)
  return installRowCounts(payload, table ? [table] : [])
}

/** The moment of `where` when it is exactly the live-route rule of routeReadAccess ({ effectiveLiveAt: { less_than_equal } }), else null. */
function liveRuleMoment(where: unknown): Date | null {
  const rule = (where as Record<string, Record<string, unknown>> | null)?.effectiveLiveAt
  if (!where || Object.keys(where).length !== 1 || !rule || Object.keys(rule).join() !== 'less_than_equal') return null
  const at = new Date(String(rule.less_than_equal))
  return Number.isNaN(at.getTime()) ? null : at
}

/**
 * The whole routes collection's total from the maintained counts, or null
 * where they do not describe the list exactly: a filter, or read access
 * narrower than "live routes" (route security rules).
 */
async function maintainedRouteTotal(ctx: HydraContext, query: CollectionQuery): Promise<number | null> {
  if (!(query.limit > 0) || Object.keys(query.where ?? {}).length > 0) return null
  const table = routesTable(ctx.payload)
  const read = ctx.payload.collections.routes?.config.access.read
  if (!table || !read) return null
  const access = await read({ req: ctx.req })
  const moment = access === true ? new Date() : liveRuleMoment(access)
  if (!moment) return null
  const counts = await maintainedCounts(ctx.payload, table, moment, ctx.req)
  if (!counts) return null
  return access === true ? counts.total : counts.live
}

/** The routes collection: Payload's reads, with `totalItems` from the maintained counts where they apply. */
export function routesStore(ctx: HydraContext, fallback: ItemStore): ItemStore {
  return {
    ...fallback,
    async list(query) {
      const total = await maintainedRouteTotal(ctx, query)
      return total === null
        ? fallback.list(query)
        : withTotal(await fallback.list(query, { count: false }), total, query)
    },
  }
}
