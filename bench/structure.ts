/**
 * Bench fixtures of the route structure: two three-depth sites for the
 * resource manifest (5 and 50 components: the SQL count must not grow) and
 * 1,000 routes for the routes collection.
 */
import type { Payload } from 'payload'
import { recomputeEffectiveLiveAt } from '../plugins/cwa/dist/features/routes/access/recompute.js'
import { structureSchema } from '../plugins/cwa/dist/features/routes/structure/schema.js'
import { runSql, sql } from '../plugins/cwa/dist/features/routes/structure/sql.js'
import { builder, manifestSite } from './structureFixtures'

export const BULK_ROUTES = 1000

/**
 * 1,000 live pages with a route each, in two statements (the bench measures reads, not fixture writes).
 * Each row its own created_at, as rows written one by one have: with one shared moment, newest-first reads
 * (created_at, then id) would sort the whole tie, which the floor's statement (created_at alone) never does.
 */
async function bulkRoutes(payload: Payload, layout: string): Promise<void> {
  const schema = structureSchema(payload)
  const liveAt = schema.columnName('routes', 'liveAt')
  await runSql(
    payload,
    sql`WITH pages AS (
          INSERT INTO ${schema.table('pages')} (reference, title, ${schema.column('pages', 'layout')}, created_at)
          SELECT 'bench-page-' || g, 'Bench page ' || g, ${layout}::uuid, now() - g * interval '1 millisecond' FROM generate_series(1, ${BULK_ROUTES}::int) g
          RETURNING id, reference, created_at
        )
        INSERT INTO ${schema.table('routes')} (path, ${schema.column('routes', 'page')}, created_at${liveAt ? sql`, ${sql.identifier(liveAt)}` : sql``})
        SELECT '/bench/' || substr(reference, 12), id, created_at${liveAt ? sql`, now() - interval '1 minute'` : sql``} FROM pages`,
    undefined,
  )
  // Written around Payload's hooks: store the effective go-live dates as a write through the API would.
  await recomputeEffectiveLiveAt(payload)
}

export async function setUpStructure(payload: Payload): Promise<{ manifestSmall: string; manifestLarge: string }> {
  const b = builder(payload)
  const manifestSmall = await manifestSite(b, 'bench-small', 5)
  const manifestLarge = await manifestSite(b, 'bench-large', 50)
  await bulkRoutes(payload, await b.layout())
  return { manifestSmall, manifestLarge }
}
