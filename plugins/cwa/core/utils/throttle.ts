import type { Payload } from 'payload'
import { getOptions } from '../registry.js'
import { runSql, sql } from './sql.js'

/**
 * Throttle counters in PostgreSQL (table `<tablePrefix>throttle`), so that
 * every instance behind a load balancer counts together: one row per key
 * holds the hits of a fixed window and when that window ends. Keys are
 * `<purpose>:<what>` (e.g. `login:client:203.0.113.9`). Used by the login
 * throttle (features/users) and the form submit throttle (features/forms).
 */
export interface ThrottleRule {
  key: string
  /** Hits allowed per window; the next one is refused. */
  limit: number
  windowSeconds: number
}

const ensured = new WeakMap<Payload, Promise<void>>()

function table(payload: Payload) {
  return sql.identifier(`${getOptions(payload.config).tablePrefix}throttle`)
}

/**
 * The table is created by the reference site's migration; a site that
 * pushes its schema from the config (development, tests) gets it here,
 * once per instance.
 */
function ensureTable(payload: Payload): Promise<void> {
  let done = ensured.get(payload)
  if (!done) {
    const t = table(payload)
    done = runSql(
      payload,
      sql`CREATE TABLE IF NOT EXISTS ${t} (key text PRIMARY KEY, hits integer NOT NULL, expires_at timestamptz NOT NULL)`,
    ).then(() => undefined)
    done.catch(() => ensured.delete(payload))
    ensured.set(payload, done)
  }
  return done
}

const keyOf = (key: string) => key.slice(0, 512)

/** Seconds until every rule lets a hit through again: 0 when none is at its limit. One query. */
export async function throttleWait(payload: Payload, rules: ThrottleRule[]): Promise<number> {
  if (rules.length === 0) return 0
  await ensureTable(payload)
  const conditions = rules.map((rule) => sql`(key = ${keyOf(rule.key)} AND hits >= ${rule.limit})`)
  const [row] = await runSql<{ wait: number | null }>(
    payload,
    sql`SELECT max(ceil(extract(epoch FROM expires_at - now())))::int AS wait FROM ${table(payload)}
         WHERE expires_at > now() AND (${sql.join(conditions, sql` OR `)})`,
  )
  return Math.max(0, row?.wait ?? 0)
}

/**
 * Counts one hit on each rule's key (a new window starts when the last one
 * ended) and returns, per key, its hits now and the seconds left in its window. One query.
 */
export async function countHits(
  payload: Payload,
  rules: ThrottleRule[],
): Promise<Map<string, { hits: number; wait: number }>> {
  if (rules.length === 0) return new Map()
  await ensureTable(payload)
  const t = table(payload)
  const values = rules.map((rule) => sql`(${keyOf(rule.key)}, 1, now() + make_interval(secs => ${rule.windowSeconds}))`)
  const rows = await runSql<{ key: string; hits: number; wait: number }>(
    payload,
    sql`INSERT INTO ${t} AS t (key, hits, expires_at) VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN t.expires_at <= now() THEN 1 ELSE t.hits + 1 END,
          expires_at = CASE WHEN t.expires_at <= now() THEN excluded.expires_at ELSE t.expires_at END
        RETURNING key, hits, ceil(extract(epoch FROM expires_at - now()))::int AS wait`,
  )
  // Ended windows hold nothing: sweep them now and then (about one write in a hundred).
  if (Math.random() < 0.01) await runSql(payload, sql`DELETE FROM ${t} WHERE expires_at < now() - interval '1 hour'`)
  return new Map(rows.map((row) => [row.key, { hits: Number(row.hits), wait: Number(row.wait) }]))
}

/**
 * Counts a hit on the rule's key and says whether it was within the limit:
 * 0 when allowed, else the seconds until the window ends. One query.
 */
export async function takeHit(payload: Payload, rule: ThrottleRule): Promise<number> {
  const counted = (await countHits(payload, [rule])).get(keyOf(rule.key))
  return counted && counted.hits > rule.limit ? Math.max(1, counted.wait) : 0
}

/** Takes one hit back from each key (a login that turned out right), removing a key at zero. */
export async function forgetHits(payload: Payload, keys: { key: string; all?: boolean }[]): Promise<void> {
  if (keys.length === 0) return
  await ensureTable(payload)
  const t = table(payload)
  const all = keys.filter((k) => k.all).map((k) => keyOf(k.key))
  const one = keys.filter((k) => !k.all).map((k) => keyOf(k.key))
  if (all.length)
    await runSql(
      payload,
      sql`DELETE FROM ${t} WHERE key IN (${sql.join(
        all.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    )
  if (one.length)
    await runSql(
      payload,
      sql`UPDATE ${t} SET hits = greatest(hits - 1, 0) WHERE key IN (${sql.join(
        one.map((k) => sql`${k}`),
        sql`, `,
      )})`,
    )
}

/** Removes every key starting with `prefix` (e.g. all the failures counted on one account). */
export async function forgetHitsByPrefix(payload: Payload, prefix: string): Promise<void> {
  await ensureTable(payload)
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  await runSql(payload, sql`DELETE FROM ${table(payload)} WHERE key LIKE ${pattern}`)
}
