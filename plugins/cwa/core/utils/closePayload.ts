import type { Payload } from 'payload'
import { releaseRunner } from '../jobs/runnerElection.js'

/** Work a layer above the core registers to run when its Payload closes (a listener's connection to end). */
type CloseStep = () => Promise<void> | void
const closeSteps = new WeakMap<Payload, Set<CloseStep>>()

/** Runs `step` when closePayload closes `payload` (before its pool ends). Returns a function that unregisters it. */
export function onClosePayload(payload: Payload, step: CloseStep): () => void {
  let steps = closeSteps.get(payload)
  if (!steps) closeSteps.set(payload, (steps = new Set()))
  steps.add(step)
  return () => void steps.delete(step)
}

/** How long a stop waits for the jobs run in progress (a job is never cut in half by a rolling restart). */
const JOBS_GRACE_MS = 30_000

interface JobsCron {
  stop(): void
  isBusy?(): boolean
}

/**
 * Stops Payload's jobs crons (no new run starts), then waits for the run in
 * progress, if any, to finish (at most `graceMs`; past it the log says so,
 * and the job's retries take it up again).
 */
async function finishJobsRun(payload: Payload, graceMs: number): Promise<void> {
  const crons: JobsCron[] = (payload.crons ?? []).slice()
  for (const cron of crons) cron.stop()
  const deadline = Date.now() + graceMs
  while (crons.some((cron) => cron.isBusy?.()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
  if (crons.some((cron) => cron.isBusy?.()))
    payload.logger.warn(`A jobs run was still going after ${graceMs} ms: stopping anyway (its jobs are retried)`)
}

/**
 * Shuts Payload down and ends its pg pool: the jobs run in progress finishes
 * first, and the jobs runner's role is given up (another instance takes it at
 * its next tick). payload.destroy() leaves one borrowed client in the pool,
 * which keeps scripts and tests alive; release it so the process can exit.
 */
export async function closePayload(payload: Payload, { jobsGraceMs = JOBS_GRACE_MS } = {}): Promise<void> {
  const pool: PoolLike | undefined = payload.db.pool
  await finishJobsRun(payload, jobsGraceMs)
  await releaseRunner(payload)
  for (const step of closeSteps.get(payload) ?? []) await Promise.resolve(step()).catch(() => {})
  closeSteps.delete(payload)
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
