import type { Payload } from 'payload'
import { getRegistry, type Resource } from '../../core/registry.js'
import { soonestPublicationMoment } from '../../core/utils/publicationMoment.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { columnsOf } from './columns.js'
import { publishableOf } from './config.js'
import type { ResolvedPublishable } from './options.js'

/**
 * The soonest publishedAt still to come among every publishable type (a
 * scheduled draft takes over then, on the next read), or null. One query.
 * Caches of anonymous responses must not outlive it.
 */
export async function nextScheduledPublication(payload: Payload, now = new Date()): Promise<Date | null> {
  const parts = getRegistry(payload.config)
    .all()
    .flatMap((resource) => {
      const names = publishableOf(resource)
      const columns = names && columnsOf(payload, resource, names)
      if (!columns) return []
      const { table, publishedAt } = columns
      return [
        sql`SELECT min(${sql.identifier(publishedAt)}) AS next FROM ${sql.identifier(table)} WHERE ${sql.identifier(publishedAt)} > ${now.toISOString()}::timestamptz`,
      ]
    })
  if (parts.length === 0) return null
  const rows = await runSql<{ next: Date | string | null }>(
    payload,
    sql`SELECT min(next) AS next FROM (${sql.join(parts, sql` UNION ALL `)}) s`,
  )
  const next = rows[0]?.next
  return next ? new Date(next) : null
}

/** nextScheduledPublication, kept between requests (core/utils/publicationMoment.ts), as epoch ms. */
export function soonestScheduledPublication(payload: Payload, now = new Date()): Promise<number | null> {
  return soonestPublicationMoment(payload, 'publishable:next', now, () => nextScheduledPublication(payload, now))
}

/**
 * The earliest publishedAt among a type's drafts of published records, past
 * ones included (due but not yet taken over), kept between requests: while
 * it is null or still to come, no read has a takeover to perform, and reads
 * of callers who never see drafts skip looking for one.
 */
export async function takeoverDue(
  payload: Payload,
  resource: Resource,
  names: ResolvedPublishable,
  now: Date,
): Promise<boolean> {
  const soonest = await soonestPublicationMoment(payload, `publishable:takeover:${resource.slug}`, now, async () => {
    const columns = columnsOf(payload, resource, names)
    if (!columns) return new Date(0) // unknown layout: always look
    const { table, publishedAt, publishedResource } = columns
    const rows = await runSql<{ next: Date | string | null }>(
      payload,
      sql`SELECT min(${sql.identifier(publishedAt)}) AS next FROM ${sql.identifier(table)} WHERE ${sql.identifier(publishedResource)} IS NOT NULL`,
    )
    return rows[0]?.next ? new Date(rows[0].next) : null
  })
  return soonest !== null && soonest <= now.getTime()
}
