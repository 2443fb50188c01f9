/**
 * Test databases are recycled instead of dropped. A file's database, once
 * its servers have closed, is emptied back to the template's state (every
 * table truncated, the template's own rows put back, its sequences reset)
 * and renamed into a pool; the next file claims it by renaming it back,
 * instead of copying the template again. Both CREATE DATABASE and DROP
 * DATABASE are slow on a busy server (DROP forces a checkpoint: 2 to 3 s
 * each on the 2-core machine while the suite runs); TRUNCATE and a rename
 * take milliseconds.
 *
 * A database whose structure differs from the template's (a test added a
 * table, dropped a column, ran other migrations) is dropped as before: the
 * structure is compared by a fingerprint of the catalog, taken from a fresh
 * copy of the template once per run (test/support/prepare.ts).
 *
 * The pool lives in the server's catalog itself (database names
 * `cwa_pool_<template hash>_<random>`), so jest's workers, and two test runs
 * of the same template, share it safely: a rename either succeeds or fails.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'

/** At most this many databases wait in the pool of a template; more are dropped. */
const POOL_SIZE = 8

export interface TemplateState {
  fingerprint: string
  /** The template's rows, per table that has any (as JSON records). */
  rows: Record<string, unknown[]>
  /** Every sequence's value in the template. */
  sequences: Array<{ name: string; value: string; called: boolean }>
}

const FINGERPRINT = `
SELECT md5(coalesce(string_agg(x, ',' ORDER BY x), '')) AS fingerprint FROM (
  SELECT 'rel:' || n.nspname || '.' || c.relname || ':' || c.relkind::text FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
     AND n.nspname NOT LIKE 'pg_temp%'
  UNION ALL SELECT 'col:' || table_schema || '.' || table_name || '.' || column_name || ':' || data_type || ':'
         || coalesce(column_default, '') || ':' || is_nullable
    FROM information_schema.columns WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 'con:' || conrelid::regclass::text || '.' || conname FROM pg_constraint
    JOIN pg_namespace n ON n.oid = connamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 'fn:' || n.nspname || '.' || p.proname FROM pg_proc p
    JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT 'trg:' || tgrelid::regclass::text || '.' || tgname FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'enum:' || enumtypid::regtype::text || ':' || enumlabel FROM pg_enum
  UNION ALL SELECT 'ext:' || extname FROM pg_extension
  UNION ALL SELECT 'nsp:' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%' AND nspname <> 'information_schema'
  UNION ALL SELECT 'set:' || array_to_string(setconfig, ';') FROM pg_db_role_setting
    WHERE setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
) AS catalog(x)`

const TABLES = `SELECT quote_ident(schemaname) || '.' || quote_ident(tablename) AS name FROM pg_tables
  WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`

const SEQUENCES = `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name,
  coalesce(last_value, start_value)::text AS value, last_value IS NOT NULL AS called
  FROM pg_sequences ORDER BY 1`

/**
 * Where the template's state is recorded: the run's own path (CWA_TEST_POOL_STATE, set by prepare.ts), not one
 * derived from CWA_DATA_DIR, which a test file may point elsewhere while it runs (test/session/productionKeys.test.ts):
 * a worker that read the state then found none, and dropped every database it released for the rest of the run.
 */
export function stateFile(template: string): string {
  return (
    process.env.CWA_TEST_POOL_STATE ??
    path.join(process.env.CWA_DATA_DIR ?? path.join(process.cwd(), '.data', 'test'), `${template}.json`)
  )
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

/** The structure and rows of a fresh copy of the template (prepare.ts writes them once per run). */
export async function recordTemplateState(url: string, template: string): Promise<void> {
  const state = await withClient(url, async (client) => {
    const { fingerprint } = (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!
    const rows: TemplateState['rows'] = {}
    for (const { name } of (await client.query<{ name: string }>(TABLES)).rows) {
      const { json } = (await client.query<{ json: unknown[] | null }>(`SELECT json_agg(t) AS json FROM ${name} t`))
        .rows[0]!
      if (json?.length) rows[name] = json
    }
    const sequences = (await client.query<TemplateState['sequences'][number]>(SEQUENCES)).rows
    return { fingerprint, rows, sequences }
  })
  writeFileSync(stateFile(template), JSON.stringify(state))
}

let cached: { file: string; state: TemplateState | null } | null = null
function templateState(template: string): TemplateState | null {
  const file = stateFile(template)
  if (cached?.file !== file) {
    let state: TemplateState | null = null
    try {
      state = JSON.parse(readFileSync(file, 'utf8')) as TemplateState
    } catch {
      // No record (a run without prepare.ts): databases are dropped, never recycled.
    }
    cached = { file, state }
  }
  return cached.state
}

const poolPrefix = (template: string) => `cwa_pool_${template.replace(/^cwa_test_tpl_/, '')}_`

/** A pooled database renamed to `name`, or false when the pool is empty. */
export async function claimPooled(admin: pg.Client, template: string, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE starts_with(datname::text, $1::text) ORDER BY random()',
    [poolPrefix(template)],
  )
  for (const { datname } of rows) {
    try {
      await admin.query(`ALTER DATABASE "${datname}" RENAME TO "${name}"`)
      return true
    } catch {
      // Claimed by another worker first, or someone is connected to it: the next one.
    }
  }
  return false
}

/**
 * Empties `name` back to the template's state and puts it in the pool;
 * false when it cannot be (its structure differs, the pool is full, no
 * template record): the caller drops it then.
 */
export async function recycle(admin: pg.Client, url: string, name: string, template: string): Promise<boolean> {
  const state = templateState(template)
  if (!state) return false
  const pooled = await admin.query('SELECT 1 FROM pg_database WHERE starts_with(datname::text, $1::text)', [
    poolPrefix(template),
  ])
  if ((pooled.rowCount ?? 0) >= POOL_SIZE) return false
  await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name])
  const reset = await withClient(url, async (client) => {
    const { fingerprint } = (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!
    if (fingerprint !== state.fingerprint) return false
    const tables = (await client.query<{ name: string }>(TABLES)).rows.map((r) => r.name)
    await client.query('BEGIN')
    if (tables.length) await client.query(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`)
    for (const [table, rows] of Object.entries(state.rows))
      await client.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1)`, [
        JSON.stringify(rows),
      ])
    for (const s of state.sequences) await client.query('SELECT setval($1, $2, $3)', [s.name, s.value, s.called])
    await client.query('COMMIT')
    return true
  }).catch(() => false)
  if (!reset) return false
  try {
    await admin.query(`ALTER DATABASE "${name}" RENAME TO "${poolPrefix(template)}${randomBytes(4).toString('hex')}"`)
    return true
  } catch {
    return false
  }
}
