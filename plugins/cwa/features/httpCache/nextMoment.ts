import type { Payload } from 'payload'
import { soonestScheduledPublication } from '../publishable/index.js'
import { soonestGoLive } from '../routes/index.js'

/**
 * The soonest moment something scheduled takes effect (a route's liveAt, a
 * draft's publishedAt), which caps every anonymous read's cache lifetime.
 * Both are kept between requests (core/utils/publicationMoment.ts): no query on the
 * read path while nothing is due.
 */
export async function nextScheduledMoment(payload: Payload, now: Date): Promise<number | null> {
  const moments = (await Promise.all([soonestGoLive(payload, now), soonestScheduledPublication(payload, now)])).filter(
    (m): m is number => m !== null,
  )
  return moments.length === 0 ? null : Math.min(...moments)
}
