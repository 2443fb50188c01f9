import type { ServerResponse } from 'node:http'
import type { StoredUpdate } from './history.js'
import { matchesAny } from './topics.js'

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
 * One open subscription: its topic selectors, the selectors its JWT allows
 * for private updates (none for an anonymous subscriber), and its stream.
 * What the client has not read yet stays in the process's memory, so a
 * subscriber that leaves more than `maxBufferedBytes` unread is
 * disconnected (it may reconnect with `Last-Event-ID`).
 */
export class Subscriber {
  private ended = false

  constructor(
    readonly selectors: readonly string[],
    readonly allowed: readonly string[],
    private readonly response: ServerResponse,
    private readonly maxBufferedBytes: number,
    /** Called once when a slow consumer is cut off (the hub logs it). */
    private readonly onSlow: () => void,
  ) {
    response.once('close', () => (this.ended = true))
  }

  /** Whether the update is for this subscriber: a topic matches a selector, and a private update matches its JWT too. */
  wants(update: StoredUpdate): boolean {
    return matchesAny(this.selectors, update.topics) && (!update.private || matchesAny(this.allowed, update.topics))
  }

  /** Writes a message; a subscriber whose unread bytes pass the bound is disconnected instead. */
  send(text: string): void {
    if (this.ended) return
    this.response.write(text)
    // Node's buffer and the socket's (writableLength counts both): what the client has not taken yet.
    if (this.response.writableLength > this.maxBufferedBytes) {
      this.ended = true
      this.onSlow()
      this.response.destroy()
    }
  }

  /** Ends the stream (the hub stops): the client sees the end and, being an EventSource, reconnects later. */
  end(): void {
    if (this.ended) return
    this.ended = true
    this.response.end()
  }
}
