import type { Payload, PayloadRequest } from 'payload'
import type { Pool } from 'pg'
import { getOptions, getRegistry, type Resource } from '../../core/registry'
import { runBuiltSql, runSql, sql } from '../../core/utils/sql'
import { columnsOf } from './columns'
import { publishableOf } from './config'
import type { ResolvedPublishable } from './options'

/**
 * Row counts of publishable tables kept by the writes themselves, so that a
 * collection's `totalItems` costs the same at 100 rows and at 100,000.
 *
 * Statement triggers (with transition tables) add one delta row per write
 * statement to a counts table: the change of all rows, and of the rows with
 * a publication date that are no draft twin. Writers never wait on one
 * counter row; readers sum the few delta rows, and a read that finds many
 * folds them into one. Callers who only see live records get the second
 * count less the records scheduled for later (an index range over
 * publishedAt: the few still to come).
 *
 * Installed when Payload starts, on the tables that exist then, else the
 * first time a table is counted (a first start migrates after Payload's
 * init), each in a transaction of its own that holds writers back while the
 * starting count is taken. A table with no counts rows is not installed
 * (new, recreated by a migration, or its columns renamed: the trigger then
 * forgets the table's counts); its reads count the rows as before until the
 * installation is done.
 */

export interface MaintainedCounts {
  /** Every row: records, drafts and scheduled ones. */
  total: number
  /** Rows live at `now`: a publication date now or past, and no twin link. */
  live: number
  /** Delta rows summed: past FOLD_AFTER they are folded into one. */
  deltas: number
}

/** Delta rows a read sums before it folds them into one. */
const FOLD_AFTER = 64

const countsTable = (payload: Payload) => `${getOptions(payload.config).tablePrefix}row_counts`
const triggerFunction = (payload: Payload) => `${getOptions(payload.config).tablePrefix}count_rows`

/** Installations under way, and when one last failed, by site and table. */
const installs = new WeakMap<Payload, Map<string, { running: boolean; failedAt?: number }>>()
/** Tables whose counts table this process has seen, by site: their reads need no existence check. */
const seen = new WeakMap<Payload, Set<string>>()
function seenBy(payload: Payload): Set<string> {
  let tables = seen.get(payload)
  if (!tables) seen.set(payload, (tables = new Set()))
  return tables
}
/** A failed installation (a long write held the table) is tried again after this long. */
const RETRY_MS = 60_000

function poolOf(payload: Payload): Pool | null {
  const pool = (payload.db as unknown as { pool?: Pool }).pool
  return pool && typeof pool.connect === 'function' ? pool : null
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`

/** The counts table, the trigger function and the table's four triggers, then its starting count: one transaction. */
async function install(payload: Payload, table: string, publishedAt: string, publishedResource: string): Promise<void> {
  const pool = poolOf(payload)
  if (!pool) return
  const counts = quote(countsTable(payload))
  const fn = quote(triggerFunction(payload))
  const args = `${literal(publishedAt)}, ${literal(publishedResource)}`
  const target = quote(table)
  const trigger = (event: string) => quote(`${getOptions(payload.config).tablePrefix}counts_${event}`)
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    // Never stall a reader behind a long write: the next read tries again.
    await client.query(`SET LOCAL lock_timeout = '2s'`)
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended(${literal(`cwa:row_counts:${table}`)}, 0))`)
    await client.query(`CREATE TABLE IF NOT EXISTS ${counts} (table_oid oid NOT NULL, live bigint NOT NULL, total bigint NOT NULL)`)
    await client.query(`CREATE INDEX IF NOT EXISTS ${quote(`${countsTable(payload)}_table_oid_idx`)} ON ${counts} (table_oid)`)
    await client.query(`CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  live_delta bigint := 0;
  total_delta bigint := 0;
  n bigint;
  p bigint;
  counted text := format('%I IS NOT NULL AND %I IS NULL', TG_ARGV[0], TG_ARGV[1]);
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${counts} WHERE table_oid = TG_RELID;
    INSERT INTO ${counts} (table_oid, live, total) VALUES (TG_RELID, 0, 0);
    RETURN NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    EXECUTE 'SELECT count(*), count(*) FILTER (WHERE ' || counted || ') FROM cwa_new_rows' INTO n, p;
    total_delta := total_delta + n;
    live_delta := live_delta + p;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    EXECUTE 'SELECT count(*), count(*) FILTER (WHERE ' || counted || ') FROM cwa_old_rows' INTO n, p;
    total_delta := total_delta - n;
    live_delta := live_delta - p;
  END IF;
  IF total_delta <> 0 OR live_delta <> 0 THEN
    INSERT INTO ${counts} (table_oid, live, total) VALUES (TG_RELID, live_delta, total_delta);
  END IF;
  RETURN NULL;
EXCEPTION
  WHEN undefined_column THEN
    -- The counted columns are gone (renamed by a migration): readers count the rows again and install anew.
    DELETE FROM ${counts} WHERE table_oid = TG_RELID;
    RETURN NULL;
  WHEN undefined_table THEN
    -- The counts table was dropped: a write never fails for it; the next read installs anew.
    RETURN NULL;
END
$fn$`)
    // Writers wait from here to the commit, so the starting count and the triggers see the same rows.
    await client.query(`LOCK TABLE ${target} IN SHARE ROW EXCLUSIVE MODE`)
    await client.query(
      `CREATE OR REPLACE TRIGGER ${trigger('insert')} AFTER INSERT ON ${target} REFERENCING NEW TABLE AS cwa_new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${args})`,
    )
    await client.query(
      `CREATE OR REPLACE TRIGGER ${trigger('update')} AFTER UPDATE ON ${target} REFERENCING OLD TABLE AS cwa_old_rows NEW TABLE AS cwa_new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${args})`,
    )
    await client.query(
      `CREATE OR REPLACE TRIGGER ${trigger('delete')} AFTER DELETE ON ${target} REFERENCING OLD TABLE AS cwa_old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${args})`,
    )
    await client.query(`CREATE OR REPLACE TRIGGER ${trigger('truncate')} AFTER TRUNCATE ON ${target} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${args})`)
    await client.query(`DELETE FROM ${counts} WHERE table_oid = ${literal(table)}::regclass`)
    await client.query(
      `INSERT INTO ${counts} (table_oid, live, total) SELECT ${literal(table)}::regclass, count(*) FILTER (WHERE ${quote(publishedAt)} IS NOT NULL AND ${quote(publishedResource)} IS NULL), count(*) FROM ${target}`,
    )
    await client.query('COMMIT')
    payload.logger.info({ msg: 'Row counts installed', table })
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined)
    throw error
  } finally {
    client.release()
  }
}

/** Starts the installation (one at a time per table); a failure is logged and tried again a minute later. */
function startInstall(payload: Payload, table: string, publishedAt: string, publishedResource: string): void {
  let byTable = installs.get(payload)
  if (!byTable) installs.set(payload, (byTable = new Map()))
  const state = byTable.get(table)
  if (state?.running || (state?.failedAt && Date.now() - state.failedAt < RETRY_MS)) return
  byTable.set(table, { running: true })
  install(payload, table, publishedAt, publishedResource).then(
    () => {
      byTable.delete(table)
      seenBy(payload).add(table)
    },
    (error: unknown) => {
      byTable.set(table, { running: false, failedAt: Date.now() })
      payload.logger.warn({ msg: 'Row counts not installed; the collection counts its rows meanwhile', table, err: error })
    },
  )
}

/** Folds a table's delta rows into one, after the read that found many (concurrent folds neither lose nor double a delta). */
function fold(payload: Payload, table: string): void {
  const pool = poolOf(payload)
  if (!pool) return
  const counts = quote(countsTable(payload))
  pool
    .query(
      `WITH gone AS (DELETE FROM ${counts} WHERE table_oid = ${literal(table)}::regclass RETURNING live, total)
       INSERT INTO ${counts} (table_oid, live, total) SELECT ${literal(table)}::regclass, sum(live), sum(total) FROM gone HAVING count(*) > 0`,
    )
    .catch((error: unknown) => payload.logger.warn({ msg: 'Row counts not folded', table, err: error }))
}

const isUndefinedTable = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null
  return e?.code === '42P01' || e?.cause?.code === '42P01'
}

/**
 * The maintained counts of a publishable type at `now`, or null when they
 * are not installed yet (the installation starts; the caller counts as
 * before). One statement.
 */
export async function maintainedCounts(payload: Payload, resource: Resource, names: ResolvedPublishable, now: Date, req?: PayloadRequest): Promise<MaintainedCounts | null> {
  const columns = columnsOf(payload, resource, names)
  if (!columns || !poolOf(payload)) return null
  const { table, publishedAt, publishedResource } = columns
  const counts = countsTable(payload)
  const tables = seenBy(payload)
  if (!tables.has(table)) {
    // Once per table and process: a database never counted has no counts table, and reading it would fail.
    const [present] = await runSql<{ present: boolean }>(payload, sql`SELECT to_regclass(${counts}) IS NOT NULL AS present`, req)
    if (!present?.present) {
      startInstall(payload, table, publishedAt, publishedResource)
      return null
    }
    tables.add(table)
  }
  const read = runBuiltSql<{ live: string | null; total: string | null; deltas: number; scheduled: string }>(
    payload,
    `publishable:counts:${table}`,
    () =>
      sql`SELECT sum(c.live) AS live, sum(c.total) AS total, count(*)::int AS deltas,
        (SELECT count(*) FROM ${sql.identifier(table)} t WHERE t.${sql.identifier(publishedAt)} > ${sql.placeholder('now')}::timestamptz AND t.${sql.identifier(publishedResource)} IS NULL) AS scheduled
        FROM ${sql.identifier(counts)} c WHERE c.table_oid = ${table}::regclass`,
    { now: now.toISOString() },
    req,
  )
  let row: Awaited<typeof read>[number] | undefined
  try {
    ;[row] = await read
  } catch (error) {
    // The counts table was dropped while this process ran: count the rows this time, and install anew.
    if (!isUndefinedTable(error)) throw error
    tables.delete(table)
    startInstall(payload, table, publishedAt, publishedResource)
    return null
  }
  if (!row || row.deltas === 0) {
    startInstall(payload, table, publishedAt, publishedResource)
    return null
  }
  if (row.deltas > FOLD_AFTER) fold(payload, table)
  return { total: Number(row.total), live: Number(row.live) - Number(row.scheduled), deltas: row.deltas }
}

/**
 * At start (the publishable feature's onInit): installs the counts of every
 * publishable table that exists and has none. An installed database costs
 * two statements; a failure is logged, and reads install later.
 */
export async function installRowCounts(payload: Payload): Promise<void> {
  const pool = poolOf(payload)
  if (!pool) return
  const tables = getRegistry(payload.config)
    .all()
    .flatMap((resource) => {
      const names = publishableOf(resource)
      const columns = names && columnsOf(payload, resource, names)
      return columns ? [columns] : []
    })
  if (tables.length === 0) return
  try {
    const counts = countsTable(payload)
    const present = (await pool.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [counts])).rows[0]?.present
    const names = tables.map((t) => t.table)
    const missing = present
      ? (
          await pool.query<{ table_name: string }>(
            `SELECT t.table_name FROM unnest($1::text[]) AS t(table_name)
             WHERE to_regclass(t.table_name) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${quote(counts)} c WHERE c.table_oid = to_regclass(t.table_name))`,
            [names],
          )
        ).rows.map((row) => row.table_name)
      : (await pool.query<{ table_name: string }>('SELECT t.table_name FROM unnest($1::text[]) AS t(table_name) WHERE to_regclass(t.table_name) IS NOT NULL', [names])).rows.map(
          (row) => row.table_name,
        )
    for (const columns of tables.filter((t) => missing.includes(t.table))) await install(payload, columns.table, columns.publishedAt, columns.publishedResource)
    const known = seenBy(payload)
    // Every table that exists now has its counts: their first reads need no existence check.
    for (const table of names) if (present || missing.includes(table)) known.add(table)
  } catch (error) {
    payload.logger.warn({ msg: 'Row counts not installed at start; collections count their rows until a read installs them', err: error })
  }
}
