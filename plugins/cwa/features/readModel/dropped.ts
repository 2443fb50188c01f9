import type { Payload } from 'payload'

/**
 * The answers this process's own writes just dropped, so that the first
 * read of one after the write goes straight to Payload's path instead of
 * first asking the store for an answer that is not there (one round trip
 * less on the read an editor's publish makes cold: the front end's next
 * request, on a site of one instance, is this one).
 *
 * It only decides whether a read asks the store first, never what it
 * answers: a read that skips the lookup computes the answer through
 * Payload's path, exactly as a miss would. If another instance stored it
 * meanwhile, that read computes it once more than it needed to.
 *
 * A fill must know a snapshot taken before its reads (the fence refuses
 * its answer if a write to its tags is missing from it). The lookup gave
 * one; here it is the one the write took in its own transaction, with the
 * write itself counted as committed: the read starts after the commit, so
 * it sees everything that snapshot sees, and the write. A later write to
 * the answer's tags is missing from it, and the fence refuses the answer.
 */
export interface DroppedBy {
  /** A snapshot taken before any read of a fill that starts now. */
  snapshot: string
  /** A moment before any read of a fill that starts now. */
  computedAt: Date
}

interface Hint extends DroppedBy {
  until: number
}

/** A hint not used within this long is forgotten: the answer may have been stored again by then. */
const HINT_MS = 10_000
/** Hints a process keeps at most (the oldest go first). */
const MAX_HINTS = 10_000
/** Transactions started between the write's snapshot and the write at most; beyond, no hint (a crowd of writes). */
const MAX_GAP = 1000n

const hints = new WeakMap<Payload, Map<string, Hint>>()

/**
 * The snapshot `snapshot`, taken inside transaction `xid`, as it would read
 * with that transaction committed: `xid` visible, every transaction that
 * `snapshot` does not see still unseen. A snapshot's `xmax` is the latest
 * completed transaction plus one, so a transaction that is still running
 * (the write, when the snapshot is taken in it) is at or past it: `xmax`
 * moves past the write, and the transactions skipped over are listed as
 * running. Null when that list would be long.
 */
export function snapshotWithCommitted(snapshot: string, xid: string): string | null {
  const [xminText, xmaxText, runningText] = snapshot.split(':')
  if (xminText === undefined || xmaxText === undefined) return null
  const xmin = BigInt(xminText)
  const xmax = BigInt(xmaxText)
  const own = BigInt(xid)
  const running = (runningText ? runningText.split(',') : []).map(BigInt).filter((each) => each !== own)
  if (own < xmax) return `${xmin}:${xmax}:${running.join(',')}`
  if (own - xmax > MAX_GAP) return null
  for (let each = xmax; each < own; each++) running.push(each)
  return `${xmin}:${own + 1n}:${running.join(',')}`
}

/** Notes the keys a committed write dropped (called after its commit, never before). */
export function noteDropped(payload: Payload, keys: readonly string[], by: DroppedBy): void {
  let byKey = hints.get(payload)
  if (!byKey) hints.set(payload, (byKey = new Map()))
  const until = Date.now() + HINT_MS
  for (const key of keys) {
    byKey.delete(key)
    byKey.set(key, { ...by, until })
  }
  // The oldest first (a Map keeps insertion order).
  for (const key of byKey.keys()) {
    if (byKey.size <= MAX_HINTS) break
    byKey.delete(key)
  }
}

/** What this process's own write knew when it dropped `key` (used once), or null. */
export function takeDropped(payload: Payload, key: string): DroppedBy | null {
  const byKey = hints.get(payload)
  const hint = byKey?.get(key)
  if (!byKey || !hint) return null
  byKey.delete(key)
  return hint.until > Date.now() ? { snapshot: hint.snapshot, computedAt: hint.computedAt } : null
}
