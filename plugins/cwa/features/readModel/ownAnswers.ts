import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { UNBOUND_READ_TAG } from '../../core/utils/readDependencies.js'
import { VARIANT } from './key.js'
import { storeLater } from './queue.js'
import { readModelReady } from './schema.js'
import { lookup, type StoredAnswer } from './store.js'

/**
 * Answers of an app's own kept in the read model beside the API's, exact in the same way: a website's rendered page
 * built from API reads. The app looks its key up; on a miss it computes the answer after the lookup (whose snapshot
 * it is judged by) and offers it with the tags of everything it read (the API's cache tags of its answers): it is
 * kept unless a write to one of those tags committed since the lookup, and every later such write drops it, on
 * every instance. Keys live apart from the API's (`app:` before the app's own).
 */
export type OwnLookup =
  | { hit: StoredAnswer }
  | { miss: { snapshot: string; computedAt: Date } }
  /** The read model is off (or not installed yet): compute, and keep nothing. */
  | null

const keyOf = (key: string) => `app:${key}`

export async function lookupOwnAnswer(payload: Payload, key: string): Promise<OwnLookup> {
  if (!getOptions(payload.config).readModel.enabled || !readModelReady(payload)) return null
  const found = await lookup(payload, keyOf(key))
  return 'hit' in found ? { hit: found.hit } : { miss: { snapshot: found.snapshot, computedAt: found.computedAt } }
}

/**
 * Offers an answer computed after a miss (kept in the background, with the other answers of its few milliseconds).
 * Not kept: tags naming an answer no write would drop (an error survived), a body larger than the store.
 */
export function keepOwnAnswer(
  payload: Payload,
  key: string,
  miss: { snapshot: string; computedAt: Date },
  tags: readonly string[],
  answer: StoredAnswer,
): boolean {
  if (tags.length === 0 || tags.includes(UNBOUND_READ_TAG)) return false
  const bytes = Buffer.byteLength(answer.body)
  if (bytes > getOptions(payload.config).readModel.maxBytes) return false
  storeLater(payload, keyOf(key), bytes, () => ({
    key: keyOf(key),
    rank: VARIANT,
    path: key,
    snapshot: miss.snapshot,
    computedAt: miss.computedAt,
    tags: [...new Set(tags)],
    answer,
  }))
  return true
}
