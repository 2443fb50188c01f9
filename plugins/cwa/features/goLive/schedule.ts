import type { Payload, PayloadRequest } from 'payload'
import { nextScheduledPublication } from '../publishable/index.js'
import { nextGoLive } from '../routes/index.js'

/** The Payload job task that announces go-live moments. */
export const GO_LIVE_TASK = 'cwaGoLive'
/** The queue its jobs go to (the runner of `npm start` works every queue). */
export const GO_LIVE_QUEUE = 'default'

interface PendingJob {
  id: string | number
  waitUntil?: string | null
  input?: { since?: string }
}

/** The soonest moment still to come when something scheduled takes effect: a route's liveAt or a draft's publishedAt. */
export async function soonestMoment(payload: Payload, now = new Date()): Promise<Date | null> {
  const moments = (
    await Promise.all([nextGoLive(payload, undefined, now), nextScheduledPublication(payload, now)])
  ).filter((d): d is Date => d !== null)
  return moments.length === 0 ? null : new Date(Math.min(...moments.map((d) => d.getTime())))
}

async function pendingJobs(payload: Payload, req?: PayloadRequest): Promise<PendingJob[]> {
  const found = await payload.find({
    collection: 'payload-jobs',
    where: {
      and: [
        { taskSlug: { equals: GO_LIVE_TASK } },
        { completedAt: { exists: false } },
        { processing: { equals: false } },
      ],
    },
    depth: 0,
    pagination: false,
    overrideAccess: true,
    ...(req ? { req } : {}),
  })
  return found.docs
}

/**
 * Keeps exactly one go-live job queued, for the soonest upcoming moment:
 * called after every committed write and at the end of each run. A queued
 * job already due is left to the runner; one for another (later or earlier)
 * moment is replaced. `since` starts the window of the next run: the
 * earliest still-pending window is kept, so no moment is ever skipped.
 */
export async function scheduleGoLive(
  payload: Payload,
  { since, now = new Date() }: { since?: Date; now?: Date } = {},
): Promise<Date | null> {
  const soonest = await soonestMoment(payload, now)
  const pending = await pendingJobs(payload)
  const due = pending.filter((job) => job.waitUntil && new Date(job.waitUntil) <= now)
  if (due.length > 0) return due[0]!.waitUntil ? new Date(due[0]!.waitUntil) : null
  const wanted = soonest?.getTime() ?? null
  const matching = pending.find((job) => job.waitUntil && new Date(job.waitUntil).getTime() === wanted)
  const starts = pending
    .map((job) => job.input?.since)
    .filter((s): s is string => !!s)
    .map((s) => new Date(s).getTime())
  const windowStart = new Date(Math.min(since?.getTime() ?? now.getTime(), ...starts))
  for (const job of pending)
    if (job !== matching) await payload.delete({ collection: 'payload-jobs', id: job.id, overrideAccess: true })
  if (!soonest || matching) return soonest
  await payload.jobs.queue({
    task: GO_LIVE_TASK,
    input: { since: windowStart.toISOString() },
    waitUntil: soonest,
    queue: GO_LIVE_QUEUE,
  })
  return soonest
}
