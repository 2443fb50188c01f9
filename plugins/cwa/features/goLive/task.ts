import type { TaskConfig } from 'payload'
import { publishDueRecords } from '../publishable/index.js'
import { announceRoutesGoneLive } from '../routes/index.js'
import { GO_LIVE_TASK, scheduleGoLive } from './schedule.js'

/**
 * The go-live job: at the moment a scheduled route goes live or a scheduled
 * draft takes over, the change is made (a due draft is promoted) or
 * announced (a route, a record published by its date) as write events, so
 * the cache purge and the real-time update go out then, not at the next
 * read. Promote-on-read stays: a read before the job runs promotes too.
 * Then the job for the next moment is queued.
 */
export function goLiveTask(): TaskConfig {
  return {
    slug: GO_LIVE_TASK,
    label: 'Go-live moments (scheduled routes and publications)',
    inputSchema: [{ name: 'since', type: 'text' }],
    outputSchema: [
      { name: 'routes', type: 'number' },
      { name: 'publications', type: 'number' },
    ],
    retries: 2,
    handler: async ({ input, req }) => {
      const now = new Date()
      const given = (input as { since?: string } | undefined)?.since
      const since = given ? new Date(given) : new Date(now.getTime() - 60_000)
      const routes = await announceRoutesGoneLive(req, since, now)
      const publications = await publishDueRecords(req, since, now)
      await scheduleGoLive(req.payload, { since: now, now })
      req.payload.logger.info(
        { routes: routes.length, publications, since: since.toISOString() },
        'Go-live moments announced',
      )
      return { output: { routes: routes.length, publications } }
    },
  } as TaskConfig
}
