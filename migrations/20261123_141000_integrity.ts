// @ts-nocheck -- written by hand: Payload declares no partial unique indexes
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

/**
 * One route per page or page data record (contract: Page.route and
 * PageData.route are single IRIs), held by the database as well as by the
 * routes collection's check, so that two concurrent creations cannot both
 * succeed:
 *
 * - `_acb_routes.page_id`: unique where set;
 * - `_acb_routes_rels` (the polymorphic `pageData` relation, one column per
 *   page data type, rows with path 'pageData'): each page data column unique
 *   among those rows. Ids are UUIDs, so a record is only ever in its own
 *   type's column and one index per column is enough.
 *
 * The names follow the plugin's convention (routeTargetConstraints in
 * plugins/cwa/features/routes/collection.ts), which turns a violation into a
 * 422 on `page` / `pageData`. A migration adding a page data type adds its
 * column's index the same way.
 *
 * Existing duplicates are not cleaned up (which route should keep the record
 * is the editor's call, not the migration's): the migration stops with a
 * message listing each record and its routes, and changes nothing. Delete the
 * extra routes or point them elsewhere (e.g. make them redirects), then start
 * again.
 */
const PAGE_DATA_COLUMNS = ['_acb_blog_article_datas_id', '_acb_news_article_datas_id']

const indexName = (column: string) => `_acb_routes_rels_${column.replace(/^_+/, '').replace(/_id$/, '')}_unique`

export async function up({ db }: MigrateUpArgs): Promise<void> {
  const pageData = PAGE_DATA_COLUMNS.map(
    (column) => sql`SELECT ${column.replace(/^_acb_|_id$/g, '')}::text AS kind, rr.${sql.identifier(column)}::text AS id, string_agg(r.path, ', ' ORDER BY r.path) AS paths
      FROM "_acb_routes_rels" rr JOIN "_acb_routes" r ON r.id = rr.parent_id
      WHERE rr.path = 'pageData' AND rr.${sql.identifier(column)} IS NOT NULL
      GROUP BY rr.${sql.identifier(column)} HAVING count(*) > 1`,
  )
  const { rows } = await db.execute(sql`SELECT 'pages'::text AS kind, page_id::text AS id, string_agg(path, ', ' ORDER BY path) AS paths
      FROM "_acb_routes" WHERE page_id IS NOT NULL GROUP BY page_id HAVING count(*) > 1
    UNION ALL ${sql.join(pageData, sql` UNION ALL `)}
    ORDER BY 1, 2`)
  if (rows.length > 0) {
    const list = rows.map((row: { kind: string; id: string; paths: string }) => `  ${row.kind} ${row.id}: ${row.paths}`).join('\n')
    throw new Error(
      `Migration 20261123_141000_integrity: ${rows.length} record(s) have more than one route, and a page or page data record may have one only:\n${list}\n` +
        'Delete the extra routes or point them elsewhere (for example make them redirects to the route you keep), then start again. Nothing was changed.',
    )
  }
  // The lock the plugin takes when it installs these indexes at start (plugins/cwa/features/routes/targetIndexes.ts):
  // an instance starting beside this one (its Payload's onInit, outside the start-up lock) may be creating one now,
  // and two creations of one index at once fail on PostgreSQL's catalog ("duplicate key value violates unique
  // constraint pg_class_relname_nsp_index"). Held until this migration's transaction ends.
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended('cwa:routes:target_indexes', 0))`)
  await db.execute(sql`CREATE UNIQUE INDEX IF NOT EXISTS "_acb_routes_page_unique" ON "_acb_routes" USING btree ("page_id") WHERE "page_id" IS NOT NULL;`)
  for (const column of PAGE_DATA_COLUMNS) {
    await db.execute(
      sql`CREATE UNIQUE INDEX IF NOT EXISTS ${sql.identifier(indexName(column))} ON "_acb_routes_rels" USING btree (${sql.identifier(column)}) WHERE "path" = 'pageData' AND ${sql.identifier(column)} IS NOT NULL;`,
    )
  }
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP INDEX IF EXISTS "_acb_routes_page_unique";`)
  for (const column of PAGE_DATA_COLUMNS) await db.execute(sql`DROP INDEX IF EXISTS ${sql.identifier(indexName(column))};`)
}
