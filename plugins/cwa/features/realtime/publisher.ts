import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { UpdateRefused } from './hub/hub.js'
import { publisherJwt } from './jwt.js'
import type { ResolvedMercure } from './options.js'
import type { PublishTarget } from './target.js'

/** One update of the Mercure protocol. */
export interface HubUpdate {
  /** The resource's absolute IRI. */
  topic: string
  /** The JSON-LD text (for a delete, `{"@id": ...}`). */
  data: string
  /** Delivered only to subscribers whose JWT allows the topic (drafts, admin-only views). */
  private: boolean
}

/** Per Payload instance, the updates still being sent: they go out one after the other, in commit order. */
const queues = new WeakMap<Payload, Promise<void>>()

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

class HubRefusal extends Error {}

async function post(
  update: HubUpdate,
  target: Extract<PublishTarget, { kind: 'remote' }>,
  options: ResolvedMercure,
): Promise<void> {
  const body = new URLSearchParams({ topic: update.topic, data: update.data })
  if (update.private) body.set('private', 'on')
  const response = await fetch(target.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await publisherJwt(target.jwtSecret)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body,
    signal: AbortSignal.timeout(options.timeout),
  })
  await response.arrayBuffer().catch(() => undefined)
  if (response.status >= 500) throw new Error(`the hub answered ${response.status}`)
  // A 4xx will not change on a retry (a wrong secret, a refused topic).
  if (!response.ok) throw new HubRefusal(`the hub refused the update: ${response.status}`)
}

/** Hands one update to the hub: over HTTP to a hub of its own, or a call to the embedded hub of this process. */
async function deliver(update: HubUpdate, target: PublishTarget, options: ResolvedMercure): Promise<void> {
  if (target.kind === 'remote') return post(update, target, options)
  try {
    target.hub.publish({ topics: [update.topic], data: update.data, private: update.private })
  } catch (error) {
    // Too large, or the hub is stopping: a retry would meet the same answer.
    if (error instanceof UpdateRefused) throw new HubRefusal(`the embedded hub refused the update: ${error.message}`)
    throw error
  }
}

/** Sends one update: retried briefly while the hub is down, then dropped with an error log. Never throws. */
async function send(payload: Payload, update: HubUpdate, target: PublishTarget): Promise<void> {
  const options = getOptions(payload.config).mercure
  for (let attempt = 0; ; attempt += 1) {
    try {
      await deliver(update, target, options)
      return
    } catch (error) {
      const last = error instanceof HubRefusal || attempt >= options.retries
      if (last) {
        payload.logger.error(
          { err: error, topic: update.topic, private: update.private, attempts: attempt + 1 },
          'Mercure update dropped: the hub could not be reached',
        )
        return
      }
      payload.logger.warn({ err: error, topic: update.topic, attempt: attempt + 1 }, 'Mercure update failed; retrying')
      await sleep(options.retryDelay * 2 ** attempt)
    }
  }
}

/**
 * Queues updates for the hub. The write that caused them has committed and
 * its response is not held back: they are sent in the background, in order.
 * Returns the promise of this batch (tests, shutdown).
 */
export function publishUpdates(payload: Payload, updates: HubUpdate[], target: PublishTarget): Promise<void> {
  if (updates.length === 0) return queues.get(payload) ?? Promise.resolve()
  const previous = queues.get(payload) ?? Promise.resolve()
  const next = previous.then(async () => {
    for (const update of updates) await send(payload, update, target)
  })
  queues.set(payload, next)
  return next
}

/** Resolves once every update queued so far has been sent or dropped. */
export function realtimeIdle(payload: Payload): Promise<void> {
  return queues.get(payload) ?? Promise.resolve()
}
