import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import type { AdapterPool } from '../../core/utils/sql.js'
import { existingMomentsSql } from './moments.js'

/**
 * The read model's tables, owned by the plugin and installed by it (as the
 * row counts are), idempotently, under an advisory lock:
 *
 * - `<prefix>read_model`: one stored answer per key: its status, headers and
 *   body as sent, the tags (IRIs) of everything it was built from, when it
 *   was computed (the lookup that started its fill), when it was last served
 *   and its rank (for eviction, key.ts) and its size;
 * - `<prefix>read_model_moments`: the moments still to come when something
 *   written takes effect by itself (moments.ts); an answer computed before
 *   one that has passed is not served;
 * - `<prefix>read_model_fence`: FENCE_BUCKETS rows, each the id of the last
 *   transaction that invalidated a tag hashed to it. A fill stores its
 *   answer only if no such transaction is missing from the snapshot it read
 *   under (store.ts), so a fill that raced a write never stores an answer
 *   older than that write;
 * - `<prefix>read_model_drop(tags, moments)`: what a write runs in its own
 *   transaction: first it takes the tags' buckets (waiting for a fill
 *   storing under them to commit), then deletes the answers tagged with what
 *   changed (a second statement: it sees the fill's row), and records the
 *   moments the write scheduled. It returns the write's transaction id, a
 *   snapshot taken in it and the keys it deleted (dropped.ts). One call per
 *   transaction. `<prefix>read_model_invalidate(tags, moments)` does the same
 *   and returns nothing: what instances of earlier releases call during a
 *   rolling deploy (and the release before them took the buckets as an
 *   argument; that overload stays too).
 *
 * FENCE_BUCKETS is a power of two, and the SQL bucket of a tag (in the
 * invalidate function) assumes 1024.
 */
export const FENCE_BUCKETS = 1024

/** The keys of dropped answers a write learns (dropped.ts); a write dropping more drops them all, and learns these. */
export const DROPPED_KEYS_RETURNED = 1000

/** The store table's layout, kept as its comment: another one (an earlier release's) is dropped at installation. */
const STORE_LAYOUT = 'payload-cwa read model, layout 5'

export function readModelTables(payload: Payload): {
  store: string
  fence: string
  moments: string
  invalidate: string
  drop: string
} {
  const prefix = getOptions(payload.config).tablePrefix
  return {
    store: `${prefix}read_model`,
    fence: `${prefix}read_model_fence`,
    moments: `${prefix}read_model_moments`,
    invalidate: `${prefix}read_model_invalidate`,
    drop: `${prefix}read_model_drop`,
  }
}

const installed = new WeakSet<Payload>()

/** Whether this process installed (or found) the tables. */
export function readModelReady(payload: Payload): boolean {
  return installed.has(payload)
}

export async function installReadModel(payload: Payload): Promise<void> {
  // Off: nothing stored, served or dropped (every instance on a database must have the same setting).
  if (installed.has(payload) || !getOptions(payload.config).readModel.enabled) return
  const pool: AdapterPool | undefined = payload.db.pool
  if (!pool) return
  const { store, fence, moments, invalidate, drop } = readModelTables(payload)
  const client = await pool.connect()
  try {
    await client.query('BEGIN')
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('cwa:read_model:install', 0))`)
    // Stored answers are derived data: a table of another layout (an earlier release) is dropped and made again.
    const { rows } = await client.query<{ present: boolean; layout: string | null }>(
      `SELECT to_regclass($1) IS NOT NULL AS present, obj_description(to_regclass($1), 'pg_class') AS layout`,
      [`"${store}"`],
    )
    const existing = rows[0]?.present ? rows[0].layout : null
    if (rows[0]?.present && existing !== STORE_LAYOUT) await client.query(`DROP TABLE "${store}"`)
    await client.query(`
      CREATE TABLE IF NOT EXISTS "${store}" (
        key text PRIMARY KEY,
        path text NOT NULL,
        status integer NOT NULL,
        headers jsonb NOT NULL,
        body text NOT NULL,
        tags text[] NOT NULL,
        computed_at timestamptz NOT NULL,
        served_at timestamptz NOT NULL DEFAULT now(),
        stored_at timestamptz NOT NULL DEFAULT now(),
        bytes integer NOT NULL,
        -- An instance of the release before stores without it (a rolling deploy): a variant's rank.
        rank smallint NOT NULL DEFAULT 1
      )`)
    if (existing !== STORE_LAYOUT) {
      // Bodies kept as they are sent, uncompressed: no compression on a store, no decompression on a hit.
      await client.query(`ALTER TABLE "${store}" ALTER COLUMN body SET STORAGE EXTERNAL`)
      await client.query(`COMMENT ON TABLE "${store}" IS '${STORE_LAYOUT}'`)
    }
    // Without the pending list (fastupdate): every write's lookup by tag would scan the stores not yet merged into
    // the index (at 20,000 answers, 6 ms a write); a store pays the merge instead, beside its response.
    await client.query(
      `CREATE INDEX IF NOT EXISTS "${store}_tags" ON "${store}" USING gin (tags) WITH (fastupdate = off)`,
    )
    const { rows: tagIndex } = await client.query<{ options: string[] | null }>(
      `SELECT reloptions AS options FROM pg_class WHERE oid = to_regclass($1)`,
      [`"${store}_tags"`],
    )
    if (!tagIndex[0]?.options?.includes('fastupdate=off'))
      await client.query(`ALTER INDEX "${store}_tags" SET (fastupdate = off)`)
    // Eviction's order (store.ts, trim): the lowest rank, then the least recently served, first.
    await client.query(`CREATE INDEX IF NOT EXISTS "${store}_eviction" ON "${store}" (rank, served_at)`)
    await client.query(`CREATE TABLE IF NOT EXISTS "${fence}" (bucket integer PRIMARY KEY, xid xid8 NOT NULL)`)
    await client.query(
      `INSERT INTO "${fence}" (bucket, xid) SELECT b, '0'::xid8 FROM generate_series(0, ${FENCE_BUCKETS - 1}) AS b
       ON CONFLICT (bucket) DO NOTHING`,
    )
    await client.query(`CREATE TABLE IF NOT EXISTS "${moments}" (at timestamptz PRIMARY KEY)`)
    // The moments already scheduled (written before the read model, or in SQL); later ones are recorded by the writes.
    // Only columns already there: Payload's onInit runs before the migrations (a first start, a release adding one).
    const { rows: present } = await client.query<{ name: string }>(
      `SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = current_schema()`,
    )
    const columns = new Set(present.map((row) => row.name))
    for (const { table, column, sql } of existingMomentsSql(payload, moments))
      if (columns.has(`${table}.${column}`)) await client.query(sql)
    // The fence bucket of a tag, in SQL: tags.ts's (the first four bytes of its SHA-256, modulo 1024), so a
    // fill's store (which names its buckets) and a write (which names its tags) meet on the same rows.
    await client.query(`
      CREATE OR REPLACE FUNCTION "${drop}"(changed text[], scheduled timestamptz[])
      RETURNS TABLE (write_xid text, write_snapshot text, dropped_at timestamptz, dropped_keys text[])
      LANGUAGE plpgsql AS $$
      DECLARE
        gone text[];
      BEGIN
        -- Locked in bucket order, so that two writes naming the same buckets queue instead of deadlocking.
        UPDATE "${fence}" AS f SET xid = pg_current_xact_id() FROM (
          SELECT bucket FROM "${fence}" WHERE bucket IN (
            SELECT ((get_byte(d, 2) & 3) << 8) | get_byte(d, 3) FROM (SELECT sha256(convert_to(t, 'UTF8')) AS d FROM unnest(changed) AS t) AS h
          ) ORDER BY bucket FOR UPDATE
        ) AS locked WHERE f.bucket = locked.bucket;
        WITH deleted AS (DELETE FROM "${store}" WHERE tags && changed RETURNING "${store}".key)
        SELECT array_agg(deleted.key) INTO gone FROM deleted;
        INSERT INTO "${moments}" (at) SELECT unnest(scheduled) ON CONFLICT (at) DO NOTHING;
        RETURN QUERY SELECT pg_current_xact_id()::text, pg_current_snapshot()::text, clock_timestamp(),
                            coalesce(gone[1:${DROPPED_KEYS_RETURNED}], '{}'::text[]);
      END $$`)
    // What instances of the release before call (the same work, nothing returned), during a rolling deploy.
    await client.query(`
      CREATE OR REPLACE FUNCTION "${invalidate}"(changed text[], scheduled timestamptz[])
      RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM 1 FROM "${drop}"(changed, scheduled);
      END $$`)
    await client.query('COMMIT')
    installed.add(payload)
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}
