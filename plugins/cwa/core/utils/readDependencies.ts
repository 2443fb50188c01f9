import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * What an answer depended on besides the records its body names: a read
 * that consults shared state its body does not show (which routes are live
 * and what they reach, for the route gates) says so with `dependsOn(tag)`,
 * and whoever keeps the answer (a stored read) records the tags with it, so
 * a write changing that state drops it. Outside a recording, nothing is
 * kept: an ordinary request pays one lookup per call.
 */
const recording = new AsyncLocalStorage<Set<string>>()

/** Runs `work` recording the tags its reads depend on (nested work included). */
export async function recordingDependencies<T>(work: () => Promise<T>): Promise<{ result: T; tags: Set<string> }> {
  const tags = new Set<string>()
  const result = await recording.run(tags, work)
  return { result, tags }
}

/** Notes that the answer being computed depends on `tag`. */
export function dependsOn(tag: string): void {
  recording.getStore()?.add(tag)
}

/**
 * The tag of an answer computed past an error that a read survived (it
 * answered as if what it could not read were absent): what it depended on
 * is unknown, so no write would drop it. Whoever keeps answers never keeps
 * one carrying it (the read model does not store it, the HTTP cache sends it
 * `private, no-store`); the next read computes it again.
 */
export const UNBOUND_READ_TAG = 'cwa:unbound-read'

/** Notes that the answer being computed survived an error: it must not be kept (UNBOUND_READ_TAG). */
export function dependsOnTheUnknown(): void {
  dependsOn(UNBOUND_READ_TAG)
}
