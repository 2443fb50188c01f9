import type { Payload } from 'payload'
import { columnNameOf, relsColumnOf } from '../../core/utils/schema.js'
import { structureSchema } from './structure/schema.js'

/** One of the unique indexes that hold one route per page or page data record in the database. */
export interface RouteTargetIndex {
  name: string
  /** The route field a violation is reported on. */
  field: 'page' | 'pageData'
  table: string
  column: string
  /** The rows the index covers (it is partial: a route without a target, or another relation's rels row, is free). */
  where: string
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * The indexes, named as the reference site's migration 20261123_141000_integrity names them:
 * `<routes table>_page_unique` on the page column, and `<routes rels table>_<page data table>_unique` on each page
 * data column of the rels table (rows with path 'pageData'; ids are UUIDs, so one index per column is enough).
 */
export function routeTargetIndexes(payload: Payload): RouteTargetIndex[] {
  const schema = structureSchema(payload)
  const routes = schema.tableName('routes')
  const indexes: RouteTargetIndex[] = []
  const page = columnNameOf(payload, 'routes', 'page')
  if (page)
    indexes.push({
      name: `${routes}_page_unique`,
      field: 'page',
      table: routes,
      column: page,
      where: `${quote(page)} IS NOT NULL`,
    })
  for (const slug of schema.pageDataSlugs) {
    const rels = relsColumnOf(payload, 'routes', slug)
    if (!rels) continue
    indexes.push({
      name: `${rels.table}_${schema.tableName(slug).replace(/^_+/, '')}_unique`,
      field: 'pageData',
      table: rels.table,
      column: rels.column,
      where: `"path" = 'pageData' AND ${quote(rels.column)} IS NOT NULL`,
    })
  }
  return indexes
}

const LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('cwa:routes:target_indexes', 0))`

/**
 * Installs the route-target indexes a database lacks, at start. Payload declares no partial index, so an app's
 * generated migrations never create them (the reference site has its own migration); without them the routes
 * collection's check (under its per-record lock) still refuses a second route, but a write that bypasses Payload
 * would not be. Checked first in one query, so a start that finds them all pays nothing more; each missing one is
 * created under an advisory lock (instances starting together create it once). A database that already holds
 * duplicates keeps working: the index is left out and the log says which and why.
 */
export async function installRouteTargetIndexes(payload: Payload): Promise<void> {
  // Typed by @payloadcms/db-postgres's augmentation of DatabaseAdapter; another adapter has no pool.
  const pool: Payload['db']['pool'] | undefined = payload.db.pool
  const wanted = routeTargetIndexes(payload)
  if (!pool || typeof pool.connect !== 'function' || wanted.length === 0) return
  // Indexes that exist, and tables that do not yet: a first start runs this before its migrations (Payload's
  // onInit), then again once they ran (schemaReady); a table still to come is no reason to warn.
  const present = await pool.query<{ name: string }>(
    `SELECT t.name FROM unnest($1::text[]) AS t(name) WHERE to_regclass(quote_ident(t.name)) IS NOT NULL
     UNION ALL SELECT t.name FROM unnest($2::text[]) AS t(name) WHERE to_regclass(quote_ident(t.name)) IS NULL`,
    [wanted.map((index) => index.name), [...new Set(wanted.map((index) => index.table))]],
  )
  const found = new Set(present.rows.map((row) => row.name))
  for (const index of wanted.filter((candidate) => !found.has(candidate.name) && !found.has(candidate.table))) {
    const client = await pool.connect()
    try {
      await client.query('BEGIN')
      await client.query(LOCK)
      await client.query(
        `CREATE UNIQUE INDEX IF NOT EXISTS ${quote(index.name)} ON ${quote(index.table)} USING btree (${quote(index.column)}) WHERE ${index.where}`,
      )
      await client.query('COMMIT')
      payload.logger.info(
        `cwa: created the unique index ${index.name} (one route per ${index.field === 'page' ? 'page' : 'page data record'})`,
      )
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {})
      const code = (error as { code?: string }).code
      const reason = code === '23505' ? 'some records already have more than one route' : (error as Error).message
      payload.logger.warn(
        `cwa: the unique index ${index.name} was not created (${reason}); the routes collection still refuses a second route for a record. ` +
          'Give each record one route (make the others redirects), then restart.',
      )
    } finally {
      client.release()
    }
  }
}
