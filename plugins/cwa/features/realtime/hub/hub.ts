import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { HubLimits } from '../options.js'
import { History, type StoredUpdate } from './history.js'
import { HEARTBEAT, frame, Subscriber } from './subscribers.js'

/** An update as a publisher gives it (over HTTP, or the service in the same process). */
export interface PublishedUpdate {
  topics: string[]
  data: string
  private: boolean
  /** The publisher's id for it; default a fresh `urn:uuid:`. */
  id?: string | null
  type?: string | null
  retry?: number | null
}

/** An update the hub does not take; `status` is what the publish endpoint answers. */
export class UpdateRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export interface MercureHubOptions {
  /** HS256 secret of the publishers' JWTs. */
  publisherSecret: string
  /** HS256 secret of the subscribers' JWTs (the cookie the API sets). */
  subscriberSecret: string
  /** The subscriber cookie's name (`mercure.cookie.name`). */
  cookieName: string
  limits: HubLimits
  /** Origins whose pages may subscribe with credentials (CORS); default none. */
  allowsOrigin?: (origin: string) => boolean
  /** Where a slow consumer's disconnection is reported. */
  onSlowSubscriber?: (details: { bufferedBytes: number }) => void
}

/** A field of an SSE message must stay on its line: a line break in an id or type would forge other fields. */
const ONE_LINE = /^[^\r\n]*$/

/**
 * A Mercure hub in memory: the subscriptions of this process, the bounded
 * history, the heartbeat. Transport-free: http.ts speaks the protocol over
 * HTTP, and the service of the same process publishes by calling
 * `publish` (no HTTP round trip, no JWT).
 */
export class MercureHub {
  readonly history: History
  private readonly subscribers = new Set<Subscriber>()
  private readonly heartbeat: ReturnType<typeof setInterval> | null
  private closed = false

  constructor(readonly options: MercureHubOptions) {
    this.history = new History(options.limits.history)
    this.heartbeat =
      options.limits.heartbeat > 0
        ? setInterval(() => {
            for (const subscriber of this.subscribers) subscriber.send(HEARTBEAT)
          }, options.limits.heartbeat)
        : null
    // The heartbeat never keeps a process alive on its own.
    this.heartbeat?.unref()
  }

  /** Open subscriptions. */
  get size(): number {
    return this.subscribers.size
  }

  /** Dispatches an update to the subscribers that want it and keeps it for replays; returns its id. */
  publish(given: PublishedUpdate): string {
    if (this.closed) throw new UpdateRefused(503, 'the hub is stopping')
    if (given.topics.length === 0) throw new UpdateRefused(400, 'missing topic')
    const id = given.id || `urn:uuid:${randomUUID()}`
    const type = given.type || null
    if (!ONE_LINE.test(id) || !ONE_LINE.test(type ?? '')) throw new UpdateRefused(400, 'id and type are one line each')
    // Larger than a subscriber's buffer bound, it would disconnect every subscriber it went to.
    if (Buffer.byteLength(given.data) >= this.options.limits.maxBufferedBytes)
      throw new UpdateRefused(413, `the update is larger than ${this.options.limits.maxBufferedBytes} bytes`)
    const update: StoredUpdate = {
      id,
      topics: given.topics,
      data: given.data,
      private: given.private,
      type,
      retry: given.retry ?? null,
    }
    this.history.add(update)
    const text = frame(update)
    for (const subscriber of this.subscribers) if (subscriber.wants(update)) subscriber.send(text)
    return id
  }

  /** Why a new subscription cannot be taken now (503), or null. */
  refusal(): string | null {
    if (this.closed) return 'The hub is stopping.'
    if (this.subscribers.size >= this.options.limits.maxSubscribers)
      return `The hub has ${this.options.limits.maxSubscribers} subscribers already; retry later.`
    return null
  }

  /**
   * Opens a subscription on a response whose SSE headers are sent: first
   * the updates after `lastEventId` it may receive, then every new one.
   */
  subscribe(
    response: ServerResponse,
    selectors: readonly string[],
    allowed: readonly string[],
    lastEventId: string | null,
  ): Subscriber {
    const subscriber = new Subscriber(selectors, allowed, response, this.options.limits.maxBufferedBytes, () =>
      this.options.onSlowSubscriber?.({ bufferedBytes: response.writableLength }),
    )
    for (const update of lastEventId ? (this.history.after(lastEventId) ?? []) : [])
      if (subscriber.wants(update)) subscriber.send(frame(update))
    this.subscribers.add(subscriber)
    response.once('close', () => this.subscribers.delete(subscriber))
    return subscriber
  }

  /** Ends every stream and refuses what comes next (a stop: open streams never end by themselves). */
  close(): void {
    this.closed = true
    if (this.heartbeat) clearInterval(this.heartbeat)
    for (const subscriber of this.subscribers) subscriber.end()
    this.subscribers.clear()
  }
}
