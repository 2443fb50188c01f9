import type { Payload } from 'payload'
import { onClosePayload } from '../../core/utils/closePayload.js'
import { type FillEntry, storeAnswers } from './store.js'

/**
 * How long a miss's answer waits to be stored, gathered with the other
 * misses of the moment. A publish makes many reads cold at once, and a
 * front end asks for dozens of them per page: their stores are one
 * statement and one commit instead of one each. The wait also keeps the
 * store's work (the answer's tags, the insert and its tag index) off the
 * moments its response is still on its way out.
 */
export const STORE_WINDOW_MS = 5
/** A batch this full is stored at once. */
const MAX_ANSWERS = 32
const MAX_BYTES = 1024 * 1024

/** A fill waiting to be stored: its entry is made when the batch is stored (after the response went out). */
type Waiting = { make: () => FillEntry; bytes: number }

interface Batch {
  /** By key, one row per key in a statement: a later fill of a key replaces an earlier one (the fence judges either). */
  waiting: Map<string, Waiting>
  bytes: number
  timer: NodeJS.Timeout
}

const open = new WeakMap<Payload, Batch>()
/** Batches being stored, per site: a stop waits for them before the pool ends. */
const storing = new WeakMap<Payload, Set<Promise<void>>>()

/**
 * Stores a fill's answer within STORE_WINDOW_MS, with the others of that
 * window, in one statement (each still judged by the fence on its own).
 * Never throws: an answer not kept is computed again by the next read.
 */
export function storeLater(payload: Payload, key: string, bytes: number, make: () => FillEntry): void {
  let batch = open.get(payload)
  if (!batch) {
    if (!storing.has(payload)) {
      storing.set(payload, new Set())
      // A stop stores the batch still gathering, then waits for those under way, before the pool ends.
      onClosePayload(payload, () => flushStores(payload))
    }
    const created: Batch = {
      waiting: new Map(),
      bytes: 0,
      timer: setTimeout(() => flush(payload, created), STORE_WINDOW_MS),
    }
    open.set(payload, (batch = created))
  }
  batch.bytes += bytes - (batch.waiting.get(key)?.bytes ?? 0)
  batch.waiting.set(key, { make, bytes })
  if (batch.waiting.size >= MAX_ANSWERS || batch.bytes >= MAX_BYTES) flush(payload, batch)
}

function flush(payload: Payload, batch: Batch): void {
  clearTimeout(batch.timer)
  if (open.get(payload) === batch) open.delete(payload)
  const work = storeBatch(payload, batch)
  const pending = storing.get(payload)
  if (!pending) return
  pending.add(work)
  void work.finally(() => pending.delete(work))
}

async function storeBatch(payload: Payload, batch: Batch): Promise<void> {
  const paths: string[] = []
  try {
    const entries = [...batch.waiting.values()].map((waiting) => waiting.make())
    paths.push(...entries.map((entry) => entry.path))
    await storeAnswers(payload, entries)
  } catch (err) {
    // Only keeping them failed (the next reads compute them again): one line for the batch.
    payload.logger.warn({ err, paths }, 'The read model could not keep answers')
  }
}

/** Stores the batch still gathering now, and waits for every batch under way (a stop, a test). */
export async function flushStores(payload: Payload): Promise<void> {
  const batch = open.get(payload)
  if (batch) flush(payload, batch)
  await Promise.allSettled([...(storing.get(payload) ?? [])])
}
