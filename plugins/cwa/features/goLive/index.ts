/**
 * Go-live at the moment it happens (beyond the contract): a Payload jobs
 * task queued for the soonest upcoming liveAt / publishedAt, re-queued after
 * every committed write and after each run, announces the moment as write
 * events (cache purge, real-time update). See docs/http-cache.md#go-live.
 */
import type { WriteEvent, WriteListener } from '../../core/events/index.js'
import { getRegistry } from '../../core/registry.js'
import { publishableOf } from '../publishable/index.js'
import type { CwaFeature } from '../../hydra/feature.js'
import { scheduleGoLive } from './schedule.js'
import { goLiveTask } from './task.js'

export { GO_LIVE_TASK, scheduleGoLive, soonestMoment } from './schedule.js'

/** The field whose date is a moment of this collection: a route's liveAt, a publishable type's publishedAt. */
function datedField(payload: Parameters<WriteListener>[1]['payload'], slug: string): string | null {
  if (slug === 'routes') return 'liveAt'
  const resource = getRegistry(payload.config).bySlug(slug)
  return resource ? (publishableOf(resource)?.publishedAt ?? null) : null
}

const isFuture = (value: unknown, now: number) =>
  (value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN) > now

/**
 * Whether a committed change can have moved the soonest moment: its record
 * holds a date still to come, or held one before the transaction (a moment
 * moved, or went away). A change made in SQL (no record in the event)
 * counts. Publishing now, editing content and deleting a draft do not: the
 * queued job stays as it is, and the write spends no query on it.
 */
function movesAMoment(event: WriteEvent, field: string, now: number): boolean {
  if (!event.doc) return true
  return isFuture(event.doc[field], now) || isFuture(event.previousDoc?.[field], now)
}

/**
 * After each committed write that can have moved the soonest moment, the
 * job is queued again for it. A failure is logged: the write is committed,
 * and reads still apply the moments.
 */
const reschedule: WriteListener = async (events, { payload }) => {
  const now = Date.now()
  const moved = events.some((event) => {
    const field = datedField(payload, event.collection)
    return field !== null && movesAMoment(event, field, now)
  })
  if (!moved) return
  try {
    await scheduleGoLive(payload)
  } catch (error) {
    payload.logger.error(
      { err: error },
      'Could not queue the go-live job; scheduled moments are still applied on the next read',
    )
  }
}

export const goLiveFeature: CwaFeature = {
  name: 'goLive',
  tasks: () => [goLiveTask()],
  onWrite: reschedule,
}
