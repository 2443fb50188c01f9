import type { Payload } from 'payload'
import type { WriteEvent } from '../../core/events/index.js'
import { dataFields, getRegistry } from '../../core/registry.js'
import { columnNameOf, tableNameOf } from '../../core/utils/schema.js'

/**
 * The moments when something written takes effect by itself (a draft's
 * publication date, a route's go-live): any date field of a resource holding
 * a moment still to come. A stored answer computed before such a moment is
 * not served once it has passed. Over-approximating costs only a read
 * computed again; missing one would serve a stale answer, so every date
 * field counts.
 */
function dateFieldsOf(payload: Payload, slug: string): string[] {
  const resource = getRegistry(payload.config).bySlug(slug)
  if (!resource) return []
  // Payload's own timestamps are never ahead of now.
  return dataFields(resource.collection.fields).flatMap((f) =>
    f.type === 'date' && f.name !== 'createdAt' && f.name !== 'updatedAt' ? [f.name] : [],
  )
}

/** The moments still to come in the written records (their latest state). */
export function momentsOf(payload: Payload, events: readonly WriteEvent[], now = Date.now()): string[] {
  const moments = new Set<string>()
  for (const event of events) {
    if (!event.doc) continue
    for (const name of dateFieldsOf(payload, event.collection)) {
      const value = event.doc[name]
      const at = typeof value === 'string' || value instanceof Date ? new Date(value).getTime() : Number.NaN
      if (Number.isFinite(at) && at > now) moments.add(new Date(at).toISOString())
    }
  }
  return [...moments]
}

/** One statement per date field: the moments to come already in the database (at installation), with its table. */
export function existingMomentsSql(
  payload: Payload,
  momentsTable: string,
): Array<{ table: string; column: string; sql: string }> {
  return getRegistry(payload.config)
    .all()
    .flatMap((resource) => {
      const table = tableNameOf(payload, resource.slug)
      if (!table) return []
      return dateFieldsOf(payload, resource.slug).flatMap((name) => {
        const column = columnNameOf(payload, resource.slug, name)
        return column
          ? [
              {
                table,
                column,
                sql: `INSERT INTO "${momentsTable}" (at) SELECT DISTINCT "${column}" FROM "${table}" WHERE "${column}" > now()
                      ON CONFLICT (at) DO NOTHING`,
              },
            ]
          : []
      })
    })
}
