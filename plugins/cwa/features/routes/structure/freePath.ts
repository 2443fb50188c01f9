import type { Payload, PayloadRequest } from 'payload'
import { structureSchema } from './schema.js'
import { runSql, sql } from './sql.js'

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * The first free path among `base`, `base-1`, `base-2`... (one query). The
 * route `ownRouteId` (the record's current route) does not count as taken:
 * regenerating a route that already has its generated path keeps it.
 */
export async function freePath(
  payload: Payload,
  req: PayloadRequest | undefined,
  base: string,
  ownRouteId: string | null,
): Promise<string> {
  const schema = structureSchema(payload)
  const rows = await runSql<{ path: string }>(
    payload,
    sql`SELECT path FROM ${schema.table('routes')}
        WHERE (path = ${base} OR path LIKE ${`${likeEscape(base)}-%`})
          AND (${ownRouteId}::uuid IS NULL OR id <> ${ownRouteId}::uuid)`,
    req,
  )
  const taken = new Set(rows.map((row) => row.path))
  if (!taken.has(base)) return base
  for (let n = 1; ; n++) {
    const candidate = `${base}-${n}`
    if (!taken.has(candidate)) return candidate
  }
}
