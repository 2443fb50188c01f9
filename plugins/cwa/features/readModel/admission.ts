import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import type { StoredReadRequest } from '../../hydra/extension.js'
import { PLAIN, type ReadShape } from './key.js'

/**
 * Which computed answers go into the store. A plain read (a path in its
 * canonical spelling, no query string, no `path` header, a known origin:
 * key.ts) names a resource that exists: there are as many as the site has,
 * and each is stored at its first miss. A variant (a query string, a `path`
 * header) or a stray read (another spelling of the path, an unknown `Host`)
 * can be made up at will (`?x=<random>`, `%61`, `Host: <random>`): stored
 * only once it has missed `readModel.admitVariantsAfter` times in this
 * process within ADMISSION_WINDOW_MS, so reads that come once never fill the
 * store nor push the site's answers out of it. What is remembered here
 * decides only what is stored, never an answer.
 */
const ADMISSION_WINDOW_MS = 10 * 60_000
/** Variants remembered at most, per process (the oldest forgotten first). */
const REMEMBERED = 10_000

const misses = new WeakMap<Payload, Map<string, { count: number; since: number }>>()

/** Counts this miss of a read; whether its answer is now to be stored. */
export function admitted(request: StoredReadRequest, { key, rank }: ReadShape, now = Date.now()): boolean {
  const needed = getOptions(request.payload.config).readModel.admitVariantsAfter
  if (needed <= 1 || rank === PLAIN) return true
  let seen = misses.get(request.payload)
  if (!seen) misses.set(request.payload, (seen = new Map()))
  const entry = seen.get(key)
  const count = entry && now - entry.since <= ADMISSION_WINDOW_MS ? entry.count + 1 : 1
  // Re-inserted at the end: the map's order is the order of last misses, the oldest first out.
  seen.delete(key)
  if (count >= needed) return true
  seen.set(key, { count, since: entry && count > 1 ? entry.since : now })
  if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value!)
  return false
}
