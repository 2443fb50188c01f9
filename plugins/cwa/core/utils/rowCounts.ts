import type { Payload, PayloadRequest } from 'payload'
import {
  countsTable,
  type CountedTable,
  install,
  INSTALL_LOCK,
  poolOf,
  quote,
  triggerFunctionSql,
} from './rowCountsInstall.js'
import { runBuiltSql, runSql, sql } from './sql.js'

export type { CountedTable } from './rowCountsInstall.js'

/**
 * Row counts of a table kept by the writes themselves, so that a
 * collection's `totalItems` costs the same at 100 rows and at 100,000.
 *
 * What is counted: all rows, and the dated ones (a date column set and,
 * where the table has one, a twin-link column empty: a publication date and
 * a draft's link to its published record, or a go-live date). Statement
 * triggers (with transition tables) add one delta row per write statement to
 * a counts table; writers never wait on one counter row; readers sum the few
 * delta rows, and a write that finds many folds them into one. Callers who
 * only see what is live get the dated count less the rows dated later than
 * now (an index range over the date: the few still to come).
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
  /** Every row. */
  total: number
  /** Rows live at `now`: dated now or before (and no twin link). */
  live: number
  /** Delta rows summed (a write past FOLD_AFTER folds them into one). */
  deltas: number
}

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

/** Starts the installation (one at a time per table); a failure is logged and tried again a minute later. */
function startInstall(payload: Payload, counted: CountedTable): void {
  const { table } = counted
  let byTable = installs.get(payload)
  if (!byTable) installs.set(payload, (byTable = new Map()))
  const state = byTable.get(table)
  if (state?.running || (state?.failedAt && Date.now() - state.failedAt < RETRY_MS)) return
  byTable.set(table, { running: true })
  install(payload, counted).then(
    () => {
      byTable.delete(table)
      seenBy(payload).add(table)
    },
    (error: unknown) => {
      byTable.set(table, { running: false, failedAt: Date.now() })
      payload.logger.warn({
        msg: 'Row counts not installed; the collection counts its rows meanwhile',
        table,
        err: error,
      })
    },
  )
}

const isUndefinedTable = (error: unknown): boolean => {
  const e = error as { code?: string; cause?: { code?: string } } | null
  return e?.code === '42P01' || e?.cause?.code === '42P01'
}

/**
 * The maintained counts of a table at `now`, or null when they are not
 * installed yet (the installation starts; the caller counts as before). One
 * statement.
 */
export async function maintainedCounts(
  payload: Payload,
  counted: CountedTable,
  now: Date,
  req?: PayloadRequest,
): Promise<MaintainedCounts | null> {
  if (!poolOf(payload)) return null
  const { table, dated, twin } = counted
  const counts = countsTable(payload)
  const tables = seenBy(payload)
  if (!tables.has(table)) {
    // Once per table and process: a database never counted has no counts table, and reading it would fail.
    const [present] = await runSql<{ present: boolean }>(
      payload,
      sql`SELECT to_regclass(${counts}) IS NOT NULL AS present`,
      req,
    )
    if (!present?.present) {
      startInstall(payload, counted)
      return null
    }
    tables.add(table)
  }
  const read = runBuiltSql<{ live: string | null; total: string | null; deltas: number; scheduled: string }>(
    payload,
    `rowCounts:${table}`,
    () =>
      sql`SELECT sum(c.live) AS live, sum(c.total) AS total, count(*)::int AS deltas,
        (SELECT count(*) FROM ${sql.identifier(table)} t WHERE t.${sql.identifier(dated)} > ${sql.placeholder('now')}::timestamptz${twin ? sql` AND t.${sql.identifier(twin)} IS NULL` : sql``}) AS scheduled
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
    startInstall(payload, counted)
    return null
  }
  if (!row || row.deltas === 0) {
    startInstall(payload, counted)
    return null
  }
  return { total: Number(row.total), live: Number(row.live) - Number(row.scheduled), deltas: row.deltas }
}

/**
 * At start (a feature's onSchemaReady): installs the counts of the tables
 * that exist and have none. An installed database costs two statements; a
 * failure is logged, and reads install later.
 */
export async function installRowCounts(payload: Payload, tables: CountedTable[]): Promise<void> {
  const pool = poolOf(payload)
  if (!pool || tables.length === 0) return
  try {
    const counts = countsTable(payload)
    const present = (await pool.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [counts]))
      .rows[0]?.present
    // The trigger function as this version writes it, on every start (the triggers call it by name).
    if (present) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        await client.query(INSTALL_LOCK)
        await client.query(triggerFunctionSql(payload))
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    }
    const names = tables.map((t) => t.table)
    const missing = present
      ? (
          await pool.query<{ table_name: string }>(
            `SELECT t.table_name FROM unnest($1::text[]) AS t(table_name)
             WHERE to_regclass(t.table_name) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${quote(counts)} c WHERE c.table_oid = to_regclass(t.table_name))`,
            [names],
          )
        ).rows.map((row) => row.table_name)
      : (
          await pool.query<{ table_name: string }>(
            'SELECT t.table_name FROM unnest($1::text[]) AS t(table_name) WHERE to_regclass(t.table_name) IS NOT NULL',
            [names],
          )
        ).rows.map((row) => row.table_name)
    for (const counted of tables.filter((t) => missing.includes(t.table))) await install(payload, counted)
    const known = seenBy(payload)
    // Every table that exists now has its counts: their first reads need no existence check.
    for (const table of names) if (present || missing.includes(table)) known.add(table)
  } catch (error) {
    payload.logger.warn({
      msg: 'Row counts not installed at start; collections count their rows until a read installs them',
      err: error,
    })
  }
}
