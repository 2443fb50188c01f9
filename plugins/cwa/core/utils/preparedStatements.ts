import { createHash } from 'node:crypto'
import type { Payload } from 'payload'

/**
 * Named prepared statements for the queries the site repeats. Payload's
 * adapter sends every query unnamed, so PostgreSQL parses and plans it each
 * time; for the relational queries Payload builds (lateral joins for
 * relations and arrays) planning costs several times the execution: about
 * 3.6 ms of planning for 0.3 ms of execution on a page read (measured with
 * EXPLAIN ANALYZE, see docs/operations.md#bench). Giving each parameterised
 * statement a name derived from its text lets the driver parse it once per
 * connection, and lets PostgreSQL reuse its plan (a generic plan after five
 * runs when that is no worse: `plan_cache_mode`).
 *
 * Only statements with parameters are named: they already use the extended
 * protocol, so each is a single statement. A text is named from its second
 * sending in the process (one that never repeats is never named). A connection keeps at most
 * `MAX_PER_CONNECTION` names, so queries whose text varies (an IN list of
 * varying length) cannot grow a connection's memory without bound: past the
 * cap they run unnamed as before.
 */
const MAX_PER_CONNECTION = 500

interface QueryConfig {
  text?: unknown
  values?: unknown[]
  name?: string
  submit?: unknown
}

interface Client {
  query: (...args: unknown[]) => unknown
  [patched]?: Set<string>
}

interface Pool {
  on(event: 'acquire' | 'connect', listener: (client: Client) => void): void
}

const patched = Symbol.for('payload-cwa.preparedStatements')

/** A node-postgres pool: something with `on` (drizzle's types leave a replica's `$client` undeclared). */
const isPool = (value: unknown): value is Pool =>
  typeof value === 'object' && value !== null && 'on' in value && typeof value.on === 'function'

/** Names already computed, by statement text: the same texts repeat on every request, so each is hashed once. */
const nameByText = new Map<string, string>()
const MAX_REMEMBERED = 2000
/**
 * Texts sent once so far. A statement is named from its second sending:
 * some texts never repeat (Payload aliases the subquery of a join field with
 * a random name on every read), and naming them would fill a connection's
 * slots with statements never used again, leaving the repeated ones unnamed.
 */
const seenOnce = new Set<string>()
const MAX_SEEN = 5000

/** A table alias as Payload's adapter makes one for a join field's subquery: a random UUID, snake_cased, quoted. */
const RANDOM_ALIAS = /"[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}"/g

/**
 * The text with Payload's random table aliases renamed in order of
 * appearance (`"cwa_alias_1"`, ...). An alias is a name local to the
 * statement, so the renamed text means the same; with it, a join field's
 * read is the same text on every request and can be prepared like the rest.
 */
export function canonicalAliases(text: string): string {
  const renamed = new Map<string, string>()
  return text.replace(RANDOM_ALIAS, (alias) => {
    let name = renamed.get(alias)
    if (!name) renamed.set(alias, (name = `"cwa_alias_${renamed.size + 1}"`))
    return name
  })
}

/** The statement name of a text sent before, or null the first time. */
function statementName(text: string): string | null {
  let name = nameByText.get(text)
  if (name) return name
  if (!seenOnce.delete(text)) {
    // Bounded: texts that never repeat cannot grow it without end (forgetting only delays a name).
    if (seenOnce.size >= MAX_SEEN) seenOnce.clear()
    seenOnce.add(text)
    return null
  }
  name = `cwa_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`
  // Bounded like the per-connection names; past it a repeated text is hashed each time it is sent.
  if (nameByText.size < MAX_REMEMBERED) nameByText.set(text, name)
  else seenOnce.add(text)
  return name
}

/** Names the parameterised statements of one connection (exported for its test). */
export function nameStatements(client: Client, max = MAX_PER_CONNECTION): void {
  if (client[patched]) return
  const names = new Set<string>()
  client[patched] = names
  const query = client.query
  client.query = function namedQuery(this: Client, ...args: unknown[]) {
    const config = args[0]
    // pg takes (text, values), ({ text, values }) or, as drizzle calls it, ({ text, rowMode, types }, values).
    const values = Array.isArray(args[1])
      ? args[1]
      : config && typeof config === 'object'
        ? (config as QueryConfig).values
        : undefined
    const sent =
      typeof config === 'string'
        ? config
        : config && typeof config === 'object'
          ? (config as QueryConfig).text
          : undefined
    const submittable = config && typeof config === 'object' && typeof (config as QueryConfig).submit === 'function'
    const named = config && typeof config === 'object' && (config as QueryConfig).name
    if (!submittable && !named && typeof sent === 'string' && Array.isArray(values) && values.length > 0) {
      // A text already named is canonical as sent (a text with random aliases never comes twice): no rewrite on the hot path.
      const text = nameByText.has(sent) ? sent : canonicalAliases(sent)
      const name = statementName(text)
      if (name && (names.has(name) || names.size < max)) {
        names.add(name)
        args[0] = typeof config === 'string' ? { text, name } : { ...(config as QueryConfig), text, name }
      }
    }
    return query.apply(this, args)
  }
}

/** Names the parameterised statements of every connection of Payload's pool (idempotent). */
export function usePreparedStatements(payload: Payload): void {
  const { pool: primary, drizzle } = payload.db
  // The read replicas' pools too (the adapter's `readReplicas`): they serve the anonymous reads.
  const replicas = (drizzle && '$replicas' in drizzle ? drizzle.$replicas : undefined) ?? []
  const pools = [primary, ...replicas.map((replica) => ('$client' in replica ? replica.$client : undefined))]
  for (const pool of pools) {
    if (!isPool(pool)) continue
    // 'acquire' fires on every checkout, new or idle: connections opened before this call are covered too.
    pool.on('acquire', (client) => nameStatements(client))
  }
}
