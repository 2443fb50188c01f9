import type { Payload } from 'payload'
import { writeGeneration } from '../events/index.js'
import { getOptions } from '../registry.js'

/**
 * A soonest scheduled moment (the next route go-live, the next scheduled
 * publication), read from the database once and reused by the requests
 * after it instead of costing each of them a query. It only says when, never
 * what, so it is the same for every caller. A kept publication moment is read again:
 * - once it has passed (what it announced has to be looked at),
 * - after any write committed in this process (writeGeneration),
 * - after the `scheduleRecheck` option's seconds (default 1), which bound how
 *   late a schedule written by another process is seen.
 */
interface Kept {
  soonest: number | null
  until: number
  generation: number
}

const kept = new WeakMap<Payload, Map<string, Kept>>()

export async function soonestPublicationMoment(
  payload: Payload,
  key: string,
  now: Date,
  read: () => Promise<Date | null>,
): Promise<number | null> {
  const at = now.getTime()
  const generation = writeGeneration(payload)
  let byKey = kept.get(payload)
  const known = byKey?.get(key)
  if (known && known.generation === generation && at < known.until && (known.soonest === null || at < known.soonest))
    return known.soonest
  const moment = await read()
  const soonest = moment === null ? null : moment.getTime()
  const recheck = getOptions(payload.config).scheduleRecheck
  // Not kept when a write committed while it was read: the value may predate it.
  if (recheck > 0 && writeGeneration(payload) === generation) {
    if (!byKey) kept.set(payload, (byKey = new Map()))
    byKey.set(key, { soonest, until: at + recheck * 1000, generation })
  }
  return soonest
}
