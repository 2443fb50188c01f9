import { randomUUID } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import type { JWTPayload } from 'jose'
import type { HubLimits } from '../options.js'
import { History, type StoredUpdate } from './history.js'
import { HEARTBEAT, frame, type StandingCheck, Subscriber } from './subscribers.js'

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
  /**
   * Whether the session a subscriber JWT speaks for still stands (the
   * embedded hub asks the session check: user enabled, token version, session
   * not logged out); asked when it subscribes and before each private update.
   * Without it (a hub of its own in tests) a verified JWT stands until it expires.
   */
  standing?: (claims: JWTPayload) => Promise<boolean>
  /** Where a stream closed because its session ended is reported. */
  onSessionEnded?: (details: { client: string }) => void
}

/** A new subscription the hub does not take now: the status, a message, and the seconds to wait. */
export interface SubscriptionRefusal {
  status: 429 | 503
  message: string
  retryAfter: number
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
  /** Open subscriptions per client (the per-client share). */
  private readonly perClient = new Map<string, number>()
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
    for (const subscriber of this.subscribers) subscriber.deliver(update, text)
    return id
  }

  /**
   * Why a new subscription of this client cannot be taken now, or null:
   * 503 while stopping or when every place is taken, 429 when the client
   * holds its share (`maxSubscribersPerClient`) already, so that one client
   * cannot take the places of the others.
   */
  refusal(client: string): SubscriptionRefusal | null {
    const { maxSubscribers, maxSubscribersPerClient } = this.options.limits
    if (this.closed) return { status: 503, message: 'The hub is stopping.', retryAfter: 10 }
    if ((this.perClient.get(client) ?? 0) >= maxSubscribersPerClient)
      return {
        status: 429,
        message: `This client holds ${maxSubscribersPerClient} subscriptions already (mercure.hub.maxSubscribersPerClient); close one or retry later.`,
        retryAfter: 10,
      }
    if (this.subscribers.size >= maxSubscribers)
      return { status: 503, message: `The hub has ${maxSubscribers} subscribers already; retry later.`, retryAfter: 10 }
    return null
  }

  /**
   * Opens a subscription on a response whose SSE headers are sent: first
   * the updates after `lastEventId` it may receive (a private one only once
   * its session is checked), then every new one.
   */
  subscribe(
    response: ServerResponse,
    subscription: { selectors: readonly string[]; allowed: readonly string[]; client: string; standing: StandingCheck },
    lastEventId: string | null,
  ): Subscriber {
    const { client } = subscription
    const subscriber = new Subscriber(
      {
        ...subscription,
        maxBufferedBytes: this.options.limits.maxBufferedBytes,
        onSlow: () => this.options.onSlowSubscriber?.({ bufferedBytes: response.writableLength }),
        onSessionEnded: () => this.options.onSessionEnded?.({ client }),
      },
      response,
    )
    for (const update of lastEventId ? (this.history.after(lastEventId) ?? []) : []) subscriber.deliver(update)
    this.subscribers.add(subscriber)
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1)
    response.once('close', () => {
      if (!this.subscribers.delete(subscriber)) return
      const left = (this.perClient.get(client) ?? 1) - 1
      if (left > 0) this.perClient.set(client, left)
      else this.perClient.delete(client)
    })
    return subscriber
  }

  /** Ends every stream and refuses what comes next (a stop: open streams never end by themselves). */
  close(): void {
    this.closed = true
    if (this.heartbeat) clearInterval(this.heartbeat)
    for (const subscriber of this.subscribers) subscriber.end()
    this.subscribers.clear()
    this.perClient.clear()
  }
}
