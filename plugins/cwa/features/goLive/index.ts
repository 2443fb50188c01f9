/**
 * Go-live at the moment it happens (beyond the contract): a Payload jobs
 * task queued for the soonest upcoming liveAt / publishedAt, re-queued after
 * every committed write and after each run, announces the moment as write
 * events (cache purge, real-time update). See docs/http-cache.md#go-live.
 */
import type { WriteListener } from '../../core/events'
import { getRegistry } from '../../core/registry'
import { publishableOf } from '../publishable'
import type { CwaFeature } from '../../hydra/feature'
import { scheduleGoLive } from './schedule'
import { goLiveTask } from './task'

export { GO_LIVE_TASK, scheduleGoLive, soonestMoment } from './schedule'

/**
 * After each committed write of a route or a publishable record (their dates
 * decide the moments), the soonest moment may have moved. A failure is
 * logged: the write is committed, and reads still apply the moments.
 */
const reschedule: WriteListener = async (events, { payload }) => {
  const registry = getRegistry(payload.config)
  const dated = (slug: string) => {
    const resource = registry.bySlug(slug)
    return slug === 'routes' || (resource !== undefined && publishableOf(resource) !== null)
  }
  if (!events.some((event) => dated(event.collection))) return
  try {
    await scheduleGoLive(payload)
  } catch (error) {
    payload.logger.error({ err: error }, 'Could not queue the go-live job; scheduled moments are still applied on the next read')
  }
}

export const goLiveFeature: CwaFeature = {
  name: 'goLive',
  tasks: () => [goLiveTask()],
  onWrite: reschedule,
}
