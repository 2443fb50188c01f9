import type { CollectionConfig, Payload, PayloadRequest } from 'payload'
import { closedToEveryone } from '../../core/access.js'
import { type CoreContext, tableName } from '../../core/context.js'
import { runSql, sql } from '../../core/utils/sql.js'
import { requireTableName } from '../../core/utils/schema.js'
import { id } from './structure.js'

export const REPORTS = 'orphaned_resources_reports'

/** The stored report (contract: Orphaned-resource report). */
export interface OrphanReport {
  generatedAt: string
  componentGroups: string[]
  componentPositions: string[]
  components: string[]
}

export type OrphanLists = Omit<OrphanReport, 'generatedAt'>

/**
 * Two rows at most: `latest`, the one latest report (replaced by every scan
 * and by the delete endpoint's refresh), and `alerted`, the lists of the last
 * orphan alert e-mail (moved only by cwa:scan-orphaned). `generatedAt` is
 * text: the ISO 8601 time with microseconds, as PostgreSQL's clock gives it
 * (a Payload date keeps milliseconds). Server-only: no API reaches it.
 */
export function reportsCollection(ctx: CoreContext): CollectionConfig {
  return {
    slug: REPORTS,
    dbName: tableName(ctx, REPORTS),
    admin: { hidden: true },
    access: closedToEveryone,
    fields: [
      { name: 'kind', type: 'select', options: ['latest', 'alerted'], required: true, unique: true },
      { name: 'generatedAt', type: 'text', required: true },
      { name: 'componentGroups', type: 'json', required: true },
      { name: 'componentPositions', type: 'json', required: true },
      { name: 'components', type: 'json', required: true },
    ],
  }
}

function table(payload: Payload): string {
  return requireTableName(payload, REPORTS)
}

/** Replaces the row `kind` with `lists`, stamped with the database's clock (microseconds, UTC). Returns what was stored. */
export async function storeReport(
  payload: Payload,
  kind: 'latest' | 'alerted',
  lists: OrphanLists,
  req?: PayloadRequest,
): Promise<OrphanReport> {
  const json = (value: string[]) => JSON.stringify(value)
  const [row] = await runSql<{ generated_at: string }>(
    payload,
    sql`INSERT INTO ${id(table(payload))} (kind, generated_at, component_groups, component_positions, components, updated_at, created_at)
      VALUES (${kind}, to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), ${json(lists.componentGroups)}::jsonb,
        ${json(lists.componentPositions)}::jsonb, ${json(lists.components)}::jsonb, now(), now())
      ON CONFLICT (kind) DO UPDATE SET generated_at = EXCLUDED.generated_at, component_groups = EXCLUDED.component_groups,
        component_positions = EXCLUDED.component_positions, components = EXCLUDED.components, updated_at = now()
      RETURNING generated_at`,
    req,
  )
  return { generatedAt: row!.generated_at, ...lists }
}

export async function loadReport(
  payload: Payload,
  kind: 'latest' | 'alerted',
  req?: PayloadRequest,
): Promise<OrphanReport | null> {
  const [row] = await runSql<{
    generated_at: string
    component_groups: string[]
    component_positions: string[]
    components: string[]
  }>(
    payload,
    sql`SELECT generated_at, component_groups, component_positions, components FROM ${id(table(payload))} WHERE kind = ${kind}`,
    req,
  )
  if (!row) return null
  return {
    generatedAt: row.generated_at,
    componentGroups: row.component_groups,
    componentPositions: row.component_positions,
    components: row.components,
  }
}
