/**
 * Hub subscriptions: the Mercure hub a page's answers announce publishes every change to the resources it shows
 * (docs/realtime.md). `subscribe` opens one stream (an `EventSource`: browsers have it; in Node, pass one) and
 * calls back for each update that names one of the IRIs it watches: its `@id`, or an IRI it points at (a new block
 * in a watched group names the group).
 */

/** One update as the hub sends it: the resource's JSON-LD (or `{"@id"}` for a deletion). */
export type CwaUpdate = Record<string, unknown> & { '@id'?: string }

interface EventSourceLike {
  onmessage: ((event: { data: string }) => void) | null
  close(): void
}

export type EventSourceConstructor = new (url: string, init?: { withCredentials?: boolean }) => EventSourceLike

export interface SubscribeOptions {
  /** The hub's URL (a resolved page's `hub`). */
  hub: string
  /** The IRIs to watch (a resolved page's resources: `Object.keys(page.resources)`). */
  iris: Iterable<string>
  onUpdate(update: CwaUpdate): void
  /** The EventSource class (default: the global one, which browsers have). */
  EventSource?: EventSourceConstructor
  /** Send the hub's cookie (an editor's private updates, on the API's domain); default true. */
  withCredentials?: boolean
}

/** Whether an update names one of the IRIs: its `@id` or any IRI among its values (absolute ones by their path). */
export function updateTouches(update: unknown, iris: ReadonlySet<string>): boolean {
  if (!update || typeof update !== 'object') return false
  const values = Object.values(update as Record<string, unknown>).flatMap((value) =>
    Array.isArray(value) ? value : [value],
  )
  return values.some((value) => {
    if (typeof value !== 'string') return false
    if (iris.has(value)) return true
    if (!/^https?:\/\//i.test(value)) return false
    try {
      return iris.has(new URL(value).pathname)
    } catch {
      return false
    }
  })
}

/**
 * Subscribes to every topic (`*`: a page shows more resources than a subscription's 20 topic selectors) and keeps
 * the updates that touch the IRIs. Returns the function that closes the stream.
 */
export function subscribe(options: SubscribeOptions): () => void {
  const Source = options.EventSource ?? (globalThis as { EventSource?: EventSourceConstructor }).EventSource
  if (!Source) throw new TypeError('payload-cwa/client: no EventSource here; pass one in the options (EventSource)')
  const watched = new Set(options.iris)
  const url = new URL(options.hub, (globalThis as { location?: { href: string } }).location?.href)
  url.searchParams.append('topic', '*')
  const source = new Source(url.toString(), { withCredentials: options.withCredentials ?? true })
  source.onmessage = (event) => {
    let update: unknown
    try {
      update = JSON.parse(event.data)
    } catch {
      return // not an update of a resource
    }
    if (updateTouches(update, watched)) options.onUpdate(update as CwaUpdate)
  }
  return () => source.close()
}
