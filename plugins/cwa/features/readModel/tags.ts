import { createHash } from 'node:crypto'
import { FENCE_BUCKETS } from './schema.js'

/** The fence bucket of each tag (a stable hash, the same on every instance). */
export function bucketsOf(tags: readonly string[]): number[] {
  const buckets = new Set<number>()
  for (const tag of tags) buckets.add(createHash('sha256').update(tag).digest().readUInt32BE(0) % FENCE_BUCKETS)
  return [...buckets]
}
