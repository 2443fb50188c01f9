/** One update as the hub keeps and sends it. */
export interface StoredUpdate {
  id: string
  topics: string[]
  data: string
  /** Sent only to subscribers whose JWT's `mercure.subscribe` matches a topic. */
  private: boolean
  /** The SSE `event` field (`type` when published), else none. */
  type: string | null
  /** The SSE `retry` field (milliseconds a client waits before reconnecting), else none. */
  retry: number | null
}

/**
 * The last updates, for subscribers that reconnect with `Last-Event-ID`:
 * bounded in entries (the oldest goes first), so a hub that runs for weeks
 * keeps the same memory. A subscriber whose last id has left the history
 * gets no replay (the response's `Last-Event-ID` header tells it where the
 * hub is), as the real hub does with a bounded transport.
 */
export class History {
  private readonly entries: StoredUpdate[] = []

  constructor(private readonly size: number) {}

  add(update: StoredUpdate): void {
    if (this.size === 0) return
    this.entries.push(update)
    if (this.entries.length > this.size) this.entries.splice(0, this.entries.length - this.size)
  }

  /** The updates after the one with this id (every kept one for `earliest`); null when it is not kept. */
  after(lastEventId: string): StoredUpdate[] | null {
    if (lastEventId === 'earliest') return this.entries.slice()
    // From the newest: a subscriber that reconnects has usually missed few.
    for (let index = this.entries.length - 1; index >= 0; index--)
      if (this.entries[index]!.id === lastEventId) return this.entries.slice(index + 1)
    return null
  }

  /** The id of the newest update kept, `earliest` when there is none (the response's `Last-Event-ID`). */
  lastId(): string {
    return this.entries.at(-1)?.id ?? 'earliest'
  }
}
