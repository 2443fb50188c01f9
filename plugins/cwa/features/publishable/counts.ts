import type { Payload, PayloadRequest } from 'payload'
import { getRegistry, type Resource } from '../../core/registry.js'
import {
  type CountedTable,
  installRowCounts,
  maintainedCounts,
  type MaintainedCounts,
} from '../../core/utils/rowCounts.js'
import { columnsOf } from './columns.js'
import { publishableOf } from './config.js'
import type { ResolvedPublishable } from './options.js'

/**
 * A publishable type's table as the maintained row counts see it
 * (core/utils/rowCounts.ts): dated by publishedAt, never live with a twin
 * link (a draft of a published record).
 */
function countedTable(payload: Payload, resource: Resource, names: ResolvedPublishable): CountedTable | null {
  const columns = columnsOf(payload, resource, names)
  return columns ? { table: columns.table, dated: columns.publishedAt, twin: columns.publishedResource } : null
}

/** The counts of a publishable type at `now`: all rows, and the live ones; null until they are installed. */
export async function publishableCounts(
  payload: Payload,
  resource: Resource,
  names: ResolvedPublishable,
  now: Date,
  req?: PayloadRequest,
): Promise<MaintainedCounts | null> {
  const counted = countedTable(payload, resource, names)
  return counted ? maintainedCounts(payload, counted, now, req) : null
}

/** The publishable feature's onSchemaReady: the counts of every publishable table. */
export function installPublishableCounts(payload: Payload): Promise<void> {
  const tables = getRegistry(payload.config)
    .all()
    .flatMap((resource) => {
      const names = publishableOf(resource)
      const counted = names && countedTable(payload, resource, names)
      return counted ? [counted] : []
    })
  return installRowCounts(payload, tables)
}
