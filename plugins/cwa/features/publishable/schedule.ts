import type { Payload } from 'payload'
import { getRegistry } from '../../core/registry'
import { toSnakeCase } from '../../core/utils/naming'
import { runSql, sql } from '../../core/utils/sql'
import { publishableOf } from './config'

interface Adapter {
  tableNameMap: Map<string, string>
  tables: Record<string, Record<string, { name?: string } | undefined>>
}

/**
 * The soonest publishedAt still to come among every publishable type (a
 * scheduled draft takes over then, on the next read), or null. One query.
 * Caches of anonymous responses must not outlive it.
 */
export async function nextScheduledPublication(payload: Payload, now = new Date()): Promise<Date | null> {
  const adapter = payload.db as unknown as Adapter
  const parts = getRegistry(payload.config)
    .all()
    .flatMap((resource) => {
      const names = publishableOf(resource)
      const table = adapter.tableNameMap.get(toSnakeCase(resource.slug)) ?? adapter.tableNameMap.get(resource.slug)
      if (!names || !table) return []
      const column = adapter.tables[table]?.[names.publishedAt]?.name ?? toSnakeCase(names.publishedAt)
      return [sql`SELECT min(${sql.identifier(column)}) AS next FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} > ${now.toISOString()}::timestamptz`]
    })
  if (parts.length === 0) return null
  const rows = await runSql<{ next: Date | string | null }>(payload, sql`SELECT min(next) AS next FROM (${sql.join(parts, sql` UNION ALL `)}) s`)
  const next = rows[0]?.next
  return next ? new Date(next) : null
}
