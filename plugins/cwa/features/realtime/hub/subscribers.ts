import type { ServerResponse } from 'node:http'
import type { StoredUpdate } from './history.js'
import { anyMatches, compileSelector, type TopicMatcher } from './topics.js'

/** An update as one Server-Sent Events message; the data's line breaks (any of SSE's three) become `data:` lines. */
export function frame(update: StoredUpdate): string {
  let text = `id: ${update.id}\n`
  if (update.type) text += `event: ${update.type}\n`
  if (update.retry !== null) text += `retry: ${update.retry}\n`
  for (const line of update.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`
  return `${text}\n`
}

/** A comment line: ignored by EventSource, it keeps proxies and load balancers from closing an idle stream. */
export const HEARTBEAT = ':\n\n'

/**
 * Whether the session the subscriber's JWT speaks for still stands
 * (resolves false when it ended: logged out, disabled, roles or password
 * changed); null for a subscriber whose JWT names no session.
 */
export type StandingCheck = (() => Promise<boolean>) | null

export interface SubscriberOptions {
  /** The subscription's topic selectors. */
  selectors: readonly string[]
  /** The selectors its JWT allows for private updates (none for an anonymous subscriber). */
  allowed: readonly string[]
  /** Who it counts against for the per-client share. */
  client: string
  standing: StandingCheck
  maxBufferedBytes: number
  /** Called once when a slow consumer is cut off (the hub logs it). */
  onSlow: () => void
  /** Called once when its session's end closes the stream (the hub logs it). */
  onSessionEnded: () => void
}

/**
 * One open subscription: its topic selectors (compiled once), the selectors
 * its JWT allows for private updates, and its stream. What the client has
 * not read yet stays in the process's memory, so a subscriber that leaves
 * more than `maxBufferedBytes` unread is disconnected (it may reconnect with
 * `Last-Event-ID`). A private update is sent only once the subscriber's
 * session is checked (`standing`); messages keep their order meanwhile.
 */
export class Subscriber {
  private ended = false
  private readonly selectors: TopicMatcher[]
  private readonly allowed: TopicMatcher[]
  /** Messages wait behind a standing check in flight, so that none overtakes a private update. */
  private queue: Promise<void> = Promise.resolve()
  private waiting = 0

  constructor(
    private readonly options: SubscriberOptions,
    private readonly response: ServerResponse,
  ) {
    this.selectors = options.selectors.map(compileSelector)
    this.allowed = options.allowed.map(compileSelector)
    response.once('close', () => (this.ended = true))
  }

  get client(): string {
    return this.options.client
  }

  /** Whether the update is for this subscriber: a topic matches a selector, and a private update matches its JWT too. */
  wants(update: StoredUpdate): boolean {
    return anyMatches(this.selectors, update.topics) && (!update.private || anyMatches(this.allowed, update.topics))
  }

  /**
   * Sends the update if it is for this subscriber. A private one first asks
   * whether the subscriber's session still stands; when it does not, the
   * stream is closed instead (the client reconnects, and its JWT is refused).
   */
  deliver(update: StoredUpdate, text: string = frame(update)): void {
    if (this.ended || !this.wants(update)) return
    const standing = update.private ? this.options.standing : null
    if (!standing && this.waiting === 0) return this.send(text)
    this.waiting += 1
    this.queue = this.queue.then(async () => {
      try {
        if (!standing) return this.send(text)
        // A check that fails (the database is unreachable) withholds the update: the stream ends, the client comes back.
        if (this.ended) return
        if (await standing().catch(() => false)) return this.send(text)
        if (this.ended) return
        this.options.onSessionEnded()
        this.end()
      } finally {
        this.waiting -= 1
      }
    })
  }

  /** Writes a message; a subscriber whose unread bytes pass the bound is disconnected instead. */
  send(text: string): void {
    if (this.ended) return
    this.response.write(text)
    // Node's buffer and the socket's (writableLength counts both): what the client has not taken yet.
    if (this.response.writableLength > this.options.maxBufferedBytes) {
      this.ended = true
      this.options.onSlow()
      this.response.destroy()
    }
  }

  /** Ends the stream (the hub stops, or the session ended): the client sees the end and, being an EventSource, reconnects. */
  end(): void {
    if (this.ended) return
    this.ended = true
    this.response.end()
  }
}
