import type { Payload } from 'payload'
import { getOptions } from '../registry.js'
import type { AdapterPool } from './sql.js'

/**
 * The SQL of the row counts (rowCounts.ts): the counts table, the trigger
 * function every counted table shares, and one table's installation (its
 * four statement triggers and its starting count, in one transaction).
 */

/** A counted table: its date column and, if it has one, its twin-link column (rows with a link are never live). */
export interface CountedTable {
  table: string
  dated: string
  twin: string | null
}

/** Delta rows of a table before the write that adds one more folds them into one. */
const FOLD_AFTER = 64

export const countsTable = (payload: Payload) => `${getOptions(payload.config).tablePrefix}row_counts`
const triggerFunction = (payload: Payload) => `${getOptions(payload.config).tablePrefix}count_rows`

export function poolOf(payload: Payload): AdapterPool | null {
  const pool: AdapterPool | undefined = payload.db.pool
  return pool && typeof pool.connect === 'function' ? pool : null
}

export const INSTALL_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('cwa:row_counts:install', 0))`

export const quote = (name: string) => `"${name.replace(/"/g, '""')}"`
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`

/**
 * The trigger function of every counted table (its columns are the
 * trigger's arguments): one delta row per write statement, folded by the
 * writer that finds too many.
 */
export function triggerFunctionSql(payload: Payload): string {
  const counts = quote(countsTable(payload))
  const fn = quote(triggerFunction(payload))
  return `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  live_delta bigint := 0;
  total_delta bigint := 0;
  n bigint;
  p bigint;
  counted text := format('%I IS NOT NULL', TG_ARGV[0]) || CASE WHEN TG_ARGV[1] = '' THEN '' ELSE format(' AND %I IS NULL', TG_ARGV[1]) END;
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
    -- Past FOLD_AFTER delta rows, one writer at a time folds them into one (the others never wait for it).
    IF (SELECT count(*) FROM ${counts} WHERE table_oid = TG_RELID) > ${FOLD_AFTER}
       AND pg_try_advisory_xact_lock(hashtextextended('cwa:row_counts:fold:' || TG_RELID::text, 0)) THEN
      WITH gone AS (DELETE FROM ${counts} WHERE table_oid = TG_RELID RETURNING live, total)
      INSERT INTO ${counts} (table_oid, live, total) SELECT TG_RELID, sum(live), sum(total) FROM gone HAVING count(*) > 0;
    END IF;
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
$fn$`
}

/** The counts table, the trigger function and the table's four triggers, then its starting count: one transaction. */
export async function install(payload: Payload, { table, dated, twin }: CountedTable): Promise<void> {
  const pool = poolOf(payload)
  if (!pool) return
  const counts = quote(countsTable(payload))
  const fn = quote(triggerFunction(payload))
  const args = `${literal(dated)}, ${literal(twin ?? '')}`
  const target = quote(table)
  const trigger = (event: string) => quote(`${getOptions(payload.config).tablePrefix}counts_${event}`)
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    // Never stall a reader behind a long write: the next read tries again.
    await client.query(`SET LOCAL lock_timeout = '2s'`)
    // One installation at a time on the database (two processes starting together would race on the table and function).
    await client.query(INSTALL_LOCK)
    // Created once. Not `IF NOT EXISTS` on every installation: CREATE INDEX locks the counts table even when the index
    // exists, and held while this waits for the counted table, that lock would stall (deadlock) a writer of that table.
    const exists = (
      await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [countsTable(payload)])
    ).rows[0]?.present
    if (!exists) {
      await client.query(`CREATE TABLE ${counts} (table_oid oid NOT NULL, live bigint NOT NULL, total bigint NOT NULL)`)
      await client.query(`CREATE INDEX ${quote(`${countsTable(payload)}_table_oid_idx`)} ON ${counts} (table_oid)`)
    }
    await client.query(triggerFunctionSql(payload))
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
    await client.query(
      `CREATE OR REPLACE TRIGGER ${trigger('truncate')} AFTER TRUNCATE ON ${target} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}(${args})`,
    )
    await client.query(`DELETE FROM ${counts} WHERE table_oid = ${literal(table)}::regclass`)
    await client.query(
      `INSERT INTO ${counts} (table_oid, live, total) SELECT ${literal(table)}::regclass, count(*) FILTER (WHERE ${quote(dated)} IS NOT NULL${twin ? ` AND ${quote(twin)} IS NULL` : ''}), count(*) FROM ${target}`,
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
