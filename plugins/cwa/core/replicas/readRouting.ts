import { AsyncLocalStorage } from 'node:async_hooks'
import type { Payload } from 'payload'

/**
 * Which database a request's reads go to when the app configures read
 * replicas (the PostgreSQL adapter's `readReplicas`). Payload's adapter then
 * sends its selects to a replica and everything else (writes, transactions,
 * raw SQL) to the primary. A request that writes, or that comes from a
 * signed-in caller, reads from the primary for all of its work: an editor's
 * reads never lag behind the edits they just made, on any instance. Anonymous
 * reads go to the replicas; a committed write waits for them before it is
 * acknowledged (replicaWait.ts), so an anonymous read after it sees it too.
 */
const readTarget = new AsyncLocalStorage<'primary' | number>()

/** Runs `fn` (and everything it starts) with its reads on the primary. */
export function onPrimary<T>(fn: () => T): T {
  return readTarget.run('primary', fn)
}

/**
 * Runs `fn` with every read on one replica (`index` in the adapter's list),
 * for work that must read one consistent state (the read model's fill reads
 * the replica its lookup read). Inside onPrimary, it stays on the primary.
 */
export function onReplica<T>(index: number, fn: () => T): T {
  return readsOnPrimary() ? fn() : readTarget.run(index, fn)
}

/** Whether the current request's reads are kept on the primary. */
export function readsOnPrimary(): boolean {
  return readTarget.getStore() === 'primary'
}

/** The methods of drizzle's replicated database that read (the others write, on the primary). */
const READS = new Set<PropertyKey>(['select', 'selectDistinct', 'selectDistinctOn', '$count', 'with', '$with', 'query'])

/** drizzle's `withReplicas` database: the primary's methods, selects sent to a replica. */
interface ReplicatedDatabase {
  $primary: object
  $replicas: Array<{ $client?: unknown; execute(query: unknown): Promise<{ rows: unknown[] }> }>
}

interface ReplicaAdapter {
  drizzle?: unknown
  readReplicaOptions?: string[]
  [routedMark]?: true
}

const routedMark = Symbol.for('payload-cwa.readRouting')

/** The adapter's replicated database, or null when no replica is configured. */
export function replicatedDatabase(payload: Payload): ReplicatedDatabase | null {
  const db = payload.db.drizzle
  return db && '$replicas' in db && db.$primary && Array.isArray(db.$replicas) && db.$replicas.length > 0 ? db : null
}

/**
 * Makes the adapter's database follow `onPrimary`: inside it, every read the
 * adapter makes goes to the primary. Idempotent; nothing without replicas.
 */
export function installReadRouting(payload: Payload): boolean {
  const adapter: ReplicaAdapter = payload.db
  const replicated = replicatedDatabase(payload)
  if (!replicated || adapter[routedMark]) return !!replicated
  adapter[routedMark] = true
  adapter.drizzle = new Proxy(replicated, {
    get(target, property) {
      // The routing itself ($primary, $replicas) reads the same inside and outside onPrimary.
      if (property === '$primary' || property === '$replicas') return target[property]
      const pinned = readTarget.getStore()
      if (pinned === 'primary') return Reflect.get(target.$primary, property)
      if (typeof pinned === 'number' && READS.has(property) && target.$replicas[pinned])
        return Reflect.get(target.$replicas[pinned], property)
      return Reflect.get(target, property)
    },
  })
  return true
}

/** The credentials a request may carry: the API's JWT cookie and its refresh cookie, Payload's token cookie. */
export interface CredentialNames {
  cookies: string[]
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Whether a request reads from the primary: it may write (any method but
 * GET, HEAD and OPTIONS), or it carries credentials (an Authorization header
 * or one of the credential cookies). Decided from the headers alone, before
 * any authentication, so it costs nothing.
 */
export function needsPrimary(
  method: string,
  header: (name: string) => string | null | undefined,
  names: CredentialNames,
): boolean {
  if (!SAFE_METHODS.has(method.toUpperCase())) return true
  if (header('authorization')) return true
  const cookie = header('cookie')
  if (!cookie) return false
  return cookie.split(';').some((part) => names.cookies.includes(part.split('=')[0]!.trim()))
}
