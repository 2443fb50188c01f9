import type { Payload } from 'payload'
import type { Pool } from 'pg'
import { getOptions } from '../../core/registry.js'
import { readModelTables } from './schema.js'
import { bucketsOf } from './tags.js'

/** A stored answer as it is sent. */
export interface StoredAnswer {
  status: number
  headers: Array<[string, string]>
  body: string
  /** When it stops being true (a scheduled moment), or null. */
  expiresAt: Date | null
}

/** What one lookup finds: the stored answer, or the snapshot a fill must read under. */
export type Lookup = { hit: StoredAnswer } | { snapshot: string }

const poolOf = (payload: Payload) => (payload.db as unknown as { pool: Pool }).pool

/** A served answer's last-served time is written again at most this often (eviction needs no more). */
const TOUCH_EVERY = "interval '60 seconds'"

/**
 * One statement: the answer stored under `key` while still true, its
 * last-served time refreshed when stale; and in any case the current
 * snapshot, under which a miss's fill reads.
 */
export async function lookup(payload: Payload, key: string): Promise<Lookup> {
  const { store } = readModelTables(payload)
  const { rows } = await poolOf(payload).query<{
    status: number | null
    headers: Array<[string, string]> | null
    body: string | null
    expires_at: Date | null
    snapshot: string
  }>(
    `WITH hit AS (
       SELECT status, headers, body, expires_at, served_at FROM "${store}"
        WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())
     ), touch AS (
       UPDATE "${store}" AS s SET served_at = now() FROM hit WHERE s.key = $1 AND hit.served_at < now() - ${TOUCH_EVERY}
     )
     SELECT hit.status, hit.headers, hit.body, hit.expires_at, pg_current_snapshot()::text AS snapshot
       FROM (SELECT 1) AS one LEFT JOIN hit ON true`,
    [key],
  )
  const row = rows[0]!
  if (row.status === null || row.body === null) return { snapshot: row.snapshot }
  return { hit: { status: row.status, headers: row.headers ?? [], body: row.body, expiresAt: row.expires_at } }
}

/** Fills stored by this process since the last trim (the bound is enforced every TRIM_EVERY fills). */
const fillsSinceTrim = new WeakMap<Payload, number>()
const TRIM_EVERY = 50

/**
 * Stores an answer computed by a fill that read under `snapshot`, unless a
 * write to one of its tags committed after that snapshot (or is still
 * under way): such a fill may have read what the write replaced. Waits for
 * a write holding one of its fence buckets. Returns whether it was stored.
 */
export async function storeAnswer(
  payload: Payload,
  entry: { key: string; path: string; snapshot: string; tags: string[]; answer: StoredAnswer },
): Promise<boolean> {
  const { store, fence } = readModelTables(payload)
  const bytes = Buffer.byteLength(entry.answer.body)
  const { rows } = await poolOf(payload).query(
    `WITH fenced AS (
       SELECT xid FROM "${fence}" WHERE bucket = ANY($9::integer[]) FOR SHARE
     ), fresh AS (
       SELECT NOT EXISTS (SELECT 1 FROM fenced WHERE NOT pg_visible_in_snapshot(xid, $10::pg_snapshot)) AS ok
     )
     INSERT INTO "${store}" (key, path, status, headers, body, tags, expires_at, bytes)
     SELECT $1, $2, $3, $4::jsonb, $5, $6::text[], $7::timestamptz, $8 FROM fresh WHERE ok
     ON CONFLICT (key) DO UPDATE SET path = EXCLUDED.path, status = EXCLUDED.status, headers = EXCLUDED.headers,
       body = EXCLUDED.body, tags = EXCLUDED.tags, expires_at = EXCLUDED.expires_at, bytes = EXCLUDED.bytes,
       served_at = now(), stored_at = now()
     RETURNING 1`,
    [
      entry.key,
      entry.path,
      entry.answer.status,
      JSON.stringify(entry.answer.headers),
      entry.answer.body,
      entry.tags,
      entry.answer.expiresAt,
      bytes,
      bucketsOf(entry.tags),
      entry.snapshot,
    ],
  )
  const count = (fillsSinceTrim.get(payload) ?? 0) + 1
  fillsSinceTrim.set(payload, count % TRIM_EVERY)
  if (count >= TRIM_EVERY) await trim(payload)
  return rows.length > 0
}

/** Evicts the least recently served answers beyond `readModel.maxEntries`. */
export async function trim(payload: Payload, maxEntries?: number): Promise<number> {
  const { store } = readModelTables(payload)
  const max = maxEntries ?? getOptions(payload.config).readModel.maxEntries
  const { rowCount } = await poolOf(payload).query(
    `DELETE FROM "${store}" WHERE key IN (SELECT key FROM "${store}" ORDER BY served_at DESC OFFSET $1)`,
    [max],
  )
  return rowCount ?? 0
}

/** Empties the store (the operator command); returns how many answers it held. */
export async function emptyStore(payload: Payload): Promise<number> {
  const { store } = readModelTables(payload)
  const { rowCount } = await poolOf(payload).query(`DELETE FROM "${store}"`)
  return rowCount ?? 0
}

/** The store's size: answers, their bytes, and the table with its indexes on disk. */
export async function storeSize(payload: Payload): Promise<{ entries: number; bodyBytes: number; diskBytes: number }> {
  const { store } = readModelTables(payload)
  const { rows } = await poolOf(payload).query<{ entries: string; body_bytes: string | null; disk: string }>(
    `SELECT count(*) AS entries, sum(bytes) AS body_bytes, pg_total_relation_size($1::regclass) AS disk FROM "${store}"`,
    [`"${store}"`],
  )
  return {
    entries: Number(rows[0]!.entries),
    bodyBytes: Number(rows[0]!.body_bytes ?? 0),
    diskBytes: Number(rows[0]!.disk),
  }
}
