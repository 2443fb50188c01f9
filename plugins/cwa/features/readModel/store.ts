import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { readsOnPrimary, replicatedDatabase } from '../../core/replicas/index.js'
import type { AdapterPool } from '../../core/utils/sql.js'
import { readModelTables } from './schema.js'
import { bucketsOf } from './tags.js'
import { PLAIN } from './key.js'

/** A stored answer as it is sent. */
export interface StoredAnswer {
  status: number
  headers: Array<[string, string]>
  body: string
}

/**
 * What one lookup finds: the stored answer (and the next scheduled moment,
 * which caps its cache lifetimes), or the snapshot and time a fill computes
 * its answer under.
 */
export type Lookup =
  { hit: StoredAnswer; nextMoment: Date | null } | { snapshot: string; computedAt: Date; nextMoment: Date | null }

const poolOf = (payload: Payload): AdapterPool => payload.db.pool

/** A served answer's last-served time is written again at most this often (eviction needs no more). */
const TOUCH_AFTER_MS = 60_000

/**
 * Where a lookup reads: with read replicas (and reads not kept on the
 * primary), one replica picked for the whole read, its fill included (the
 * fill must read the state the lookup's snapshot saw, or a newer one: the
 * same replica, or the primary); else the primary.
 */
export function readSource(payload: Payload): { pool: AdapterPool; replica: number | null } {
  const replicated = readsOnPrimary() ? null : replicatedDatabase(payload)
  if (replicated) {
    const replica = Math.floor(Math.random() * replicated.$replicas.length)
    const pool = replicated.$replicas[replica]!.$client as AdapterPool | undefined
    if (pool) return { pool, replica }
  }
  return { pool: poolOf(payload), replica: null }
}

/**
 * One statement: the answer stored under `key`, unless a scheduled moment
 * has passed since it was computed; and in any case the current snapshot
 * and time (a miss's fill computes under them) and the next moment to come.
 * A hit not served for a minute has its last-served time refreshed on the
 * primary, beside the answer (eviction is by it).
 */
export async function lookup(payload: Payload, key: string, pool: AdapterPool = poolOf(payload)): Promise<Lookup> {
  const { store, moments } = readModelTables(payload)
  const { rows } = await pool.query<{
    status: number | null
    headers: Array<[string, string]> | null
    body: string | null
    served_at: Date | null
    snapshot: string
    now: Date
    next_moment: Date | null
  }>({
    // Prepared once per connection: a lookup is on every public read, its planning would be a good part of it.
    name: `${store}:lookup`,
    text: `WITH hit AS (
       SELECT status, headers, body, served_at FROM "${store}" AS s
        WHERE key = $1
          AND NOT EXISTS (SELECT 1 FROM "${moments}" AS m WHERE m.at > s.computed_at AND m.at <= now())
     )
     SELECT hit.status, hit.headers, hit.body, hit.served_at, pg_current_snapshot()::text AS snapshot, now() AS now,
            (SELECT min(at) FROM "${moments}" WHERE at > now()) AS next_moment
       FROM (SELECT 1) AS one LEFT JOIN hit ON true`,
    values: [key],
  })
  const row = rows[0]!
  if (row.status === null || row.body === null)
    return { snapshot: row.snapshot, computedAt: row.now, nextMoment: row.next_moment }
  if (row.served_at && row.now.getTime() - row.served_at.getTime() > TOUCH_AFTER_MS) {
    poolOf(payload)
      .query(`UPDATE "${store}" SET served_at = now() WHERE key = $1`, [key])
      .catch((err: unknown) => payload.logger.warn({ err }, 'The read model could not note an answer as served'))
  }
  return { hit: { status: row.status, headers: row.headers ?? [], body: row.body }, nextMoment: row.next_moment }
}

/**
 * Fills stored by this process since the last trim, and their bytes: the
 * bound on answers is enforced every TRIM_EVERY fills (one index lookup);
 * the bound on bytes once the bodies stored since its last check reach a
 * tenth of `readModel.maxBytes` (a running sum over the store: rare with
 * small answers, often with large ones).
 */
const sinceTrim = new WeakMap<Payload, { fills: number; bytes: number }>()
const TRIM_EVERY = 50

/** An answer a fill computed, with what it read under and the tags of what it was built from. */
export interface FillEntry {
  key: string
  /** Its rank in eviction (key.ts): the lowest go first. Default: a plain read's. */
  rank?: number
  path: string
  snapshot: string
  computedAt: Date
  tags: string[]
  answer: StoredAnswer
}

/**
 * Stores the answers computed by fills, in one statement: each unless a
 * write to one of its tags committed after the snapshot its fill read under
 * (or is still under way): such a fill may have read what the write
 * replaced. Each answer is judged on its own. Returns, for each, whether it
 * was stored. Keys must be distinct (an upsert touches a row once).
 *
 * A fill never waits for a write: a fence bucket or the answer's row that a
 * write holds (locked, `SKIP LOCKED` leaves it out) means the write is under
 * way, and the answers needing it are not stored. Waiting would hold the
 * fill's share locks on its other buckets, which a later statement of the
 * same write may need: a deadlock, with the write as likely a victim as the
 * fill.
 */
export async function storeAnswers(payload: Payload, entries: readonly FillEntry[]): Promise<boolean[]> {
  if (entries.length === 0) return []
  const { store, fence } = readModelTables(payload)
  const column = <T>(of: (entry: FillEntry) => T): T[] => entries.map(of)
  const { rows } = await poolOf(payload).query<{ key: string }>({
    // Prepared once per connection (one shape for any number of answers): its planning would be a good part of it.
    name: `${store}:store`,
    text: `WITH input AS MATERIALIZED (
       SELECT * FROM unnest($1::text[], $2::text[], $3::integer[], $4::text[], $5::text[], $6::text[],
                            $7::timestamptz[], $8::integer[], $9::text[], $10::text[], $11::smallint[])
         AS i(key, path, status, headers, body, tags, computed_at, bytes, buckets, snapshot, rank)
     ), fenced AS MATERIALIZED (
       SELECT bucket, xid FROM "${fence}"
        WHERE bucket IN (SELECT jsonb_array_elements_text(buckets::jsonb)::integer FROM input)
          FOR SHARE SKIP LOCKED
     ), unlocked AS MATERIALIZED (
       SELECT key FROM "${store}" WHERE key IN (SELECT key FROM input) FOR UPDATE SKIP LOCKED
     ), fresh AS (
       SELECT i.* FROM input AS i
        WHERE NOT EXISTS (
                SELECT 1 FROM jsonb_array_elements_text(i.buckets::jsonb) AS b(bucket)
                 WHERE NOT EXISTS (SELECT 1 FROM fenced AS f WHERE f.bucket = b.bucket::integer
                                      AND pg_visible_in_snapshot(f.xid, i.snapshot::pg_snapshot)))
          AND (EXISTS (SELECT 1 FROM unlocked AS u WHERE u.key = i.key)
               OR NOT EXISTS (SELECT 1 FROM "${store}" AS s WHERE s.key = i.key))
     )
     INSERT INTO "${store}" (key, path, status, headers, body, tags, computed_at, bytes, rank)
     SELECT key, path, status, headers::jsonb, body, ARRAY(SELECT jsonb_array_elements_text(tags::jsonb)),
            computed_at, bytes, rank FROM fresh
     ON CONFLICT (key) DO UPDATE SET path = EXCLUDED.path, status = EXCLUDED.status, headers = EXCLUDED.headers,
       body = EXCLUDED.body, tags = EXCLUDED.tags, computed_at = EXCLUDED.computed_at, bytes = EXCLUDED.bytes,
       rank = GREATEST("${store}".rank, EXCLUDED.rank), served_at = now(), stored_at = now()
     RETURNING key`,
    values: [
      column((e) => e.key),
      column((e) => e.path),
      column((e) => e.answer.status),
      column((e) => JSON.stringify(e.answer.headers)),
      column((e) => e.answer.body),
      column((e) => JSON.stringify(e.tags)),
      column((e) => e.computedAt),
      column((e) => Buffer.byteLength(e.answer.body)),
      column((e) => JSON.stringify(bucketsOf(e.tags))),
      column((e) => e.snapshot),
      column((e) => e.rank ?? PLAIN),
    ],
  })
  const stored = new Set(rows.map((row) => row.key))
  const before = sinceTrim.get(payload) ?? { fills: 0, bytes: 0 }
  const count = { fills: before.fills + stored.size, bytes: before.bytes }
  for (const entry of entries) if (stored.has(entry.key)) count.bytes += Buffer.byteLength(entry.answer.body)
  const due = {
    entries: count.fills >= TRIM_EVERY,
    bytes: count.bytes >= getOptions(payload.config).readModel.maxBytes / 10,
  }
  sinceTrim.set(payload, { fills: due.entries ? 0 : count.fills, bytes: due.bytes ? 0 : count.bytes })
  if (due.entries || due.bytes) await trim(payload, { bytes: due.bytes })
  return entries.map((entry) => stored.has(entry.key))
}

/** Stores one fill's answer (storeAnswers for one). */
export async function storeAnswer(payload: Payload, entry: FillEntry): Promise<boolean> {
  const [stored] = await storeAnswers(payload, [entry])
  return stored === true
}

/** Trims under way, per site: a trim asked for while one runs is that one (stores come in bursts). */
const trimming = new WeakMap<Payload, Promise<number>>()

/** Bounds a trim enforces: the options' unless given; the byte bound unless `bytes` is false. */
export interface TrimBounds {
  maxEntries?: number
  maxBytes?: number
  bytes?: boolean
}

/**
 * Evicts answers beyond `readModel.maxEntries` or `readModel.maxBytes` of
 * bodies: the lowest rank first (key.ts: stray spellings and origins, then
 * variants, then plain reads), the least recently served first within a
 * rank; and the moments passed more than a day ago with the answers
 * computed before them (which they already keep from being served). Each
 * cut is found in eviction order (the rank and served-time index): the
 * answer at the bound (one index lookup), or the first past the byte bound
 * (a running sum): never a plan that compares every answer with every other.
 */
export function trim(payload: Payload, bounds: TrimBounds = {}): Promise<number> {
  const running = trimming.get(payload)
  if (running) return running
  const work = trimNow(payload, bounds).finally(() => trimming.delete(payload))
  trimming.set(payload, work)
  return work
}

/**
 * Deletes, in one statement, the answer `cut` names and every answer after it in keeping order (the highest rank,
 * the most recently served first). Answers served at the same moment as it go with it, so ties never keep the store
 * over a bound. Rows another transaction holds are skipped: a write deletes them itself, a fill is making them the
 * newest. So a trim never waits for a write (never deadlocks with one), and the bounds hold once those commit.
 */
async function cutAt(payload: Payload, cut: string, bound: number): Promise<number> {
  const { store } = readModelTables(payload)
  const { rowCount } = await poolOf(payload).query(
    `WITH cut AS (${cut})
     DELETE FROM "${store}" WHERE key IN (
       SELECT s.key FROM "${store}" AS s, cut
        WHERE s.rank < cut.rank OR (s.rank = cut.rank AND s.served_at <= cut.served_at)
          FOR UPDATE OF s SKIP LOCKED)`,
    [bound],
  )
  return rowCount ?? 0
}

async function trimNow(payload: Payload, bounds: TrimBounds): Promise<number> {
  const { store, moments } = readModelTables(payload)
  const options = getOptions(payload.config).readModel
  const pool = poolOf(payload)
  let evicted = await cutAt(
    payload,
    `SELECT rank, served_at FROM "${store}" ORDER BY rank DESC, served_at DESC OFFSET $1 LIMIT 1`,
    bounds.maxEntries ?? options.maxEntries,
  )
  if (bounds.bytes !== false)
    evicted += await cutAt(
      payload,
      `SELECT rank, served_at FROM (
         SELECT rank, served_at, sum(bytes) OVER (ORDER BY rank DESC, served_at DESC ROWS UNBOUNDED PRECEDING) AS total
           FROM "${store}"
       ) AS kept WHERE total > $1 ORDER BY rank DESC, served_at DESC LIMIT 1`,
      bounds.maxBytes ?? options.maxBytes,
    )
  await pool.query(
    `WITH old AS (SELECT max(at) AS at FROM "${moments}" WHERE at < now() - interval '1 day'),
          gone AS (DELETE FROM "${store}" WHERE key IN (
            SELECT s.key FROM "${store}" AS s, old WHERE s.computed_at < old.at FOR UPDATE OF s SKIP LOCKED))
     DELETE FROM "${moments}" AS m USING old WHERE m.at <= old.at`,
  )
  return evicted
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
