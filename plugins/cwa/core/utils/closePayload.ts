import type { Payload } from 'payload'
import { releaseRunner } from '../jobs/runnerElection.js'

/**
 * Shuts Payload down and ends its pg pool. payload.destroy() leaves one
 * borrowed client in the pool, which keeps scripts and tests alive; release
 * it so the process can exit.
 */
export async function closePayload(payload: Payload): Promise<void> {
  const pool = (payload.db as unknown as { pool?: PoolLike }).pool
  // The jobs runner's role goes first: another instance takes it at its next tick.
  await releaseRunner(payload)
  await payload.destroy().catch(() => {})
  if (!pool) return
  for (const client of pool._clients ?? []) {
    // Only the client borrowed at connect and never returned: busy clients release themselves.
    // (pg 8.20 deprecates the public activeQuery/queryQueue getters, with a warning: read the fields.)
    const busy = client._activeQuery != null || (client._queryQueue?.length ?? 0) > 0
    if (!busy && !pool._idle?.some((idle) => idle === client || (idle as { client?: unknown }).client === client)) {
      try {
        client.release?.()
      } catch {
        /* already released */
      }
    }
  }
  if (!pool.ended) await pool.end().catch(() => {})
}

interface PoolLike {
  _clients?: Array<{ release?: () => void; _activeQuery?: unknown; _queryQueue?: unknown[] }>
  _idle?: unknown[]
  ended?: boolean
  end(): Promise<void>
}
