import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { MercureHub } from '../../plugins/cwa/dist/features/realtime/hub/hub.js'
import { hubRequestHandler } from '../../plugins/cwa/dist/features/realtime/hub/http.js'
import type { HubLimits } from '../../plugins/cwa/dist/features/realtime/options.js'
import { resolveOptions } from '../../plugins/cwa/dist/options.js'

export { selectorMatches } from '../../plugins/cwa/dist/features/realtime/hub/topics.js'

/**
 * A Mercure hub on its own loopback port for the tests: the library's own
 * hub (plugins/cwa/features/realtime/hub, the one the reference site embeds
 * at /.well-known/mercure), served here by a server of its own so that the
 * service reaches it over HTTP as it reaches a real, external hub
 * (MERCURE_URL). test/realtime/hub.test.ts checks the protocol on it.
 */

export interface HubUpdateRecord {
  id: string
  topics: string[]
  data: string
  private: boolean
}

export interface MercureTestHub {
  /** The hub URL (`http://127.0.0.1:<port>/.well-known/mercure`): publish and subscribe. */
  url: string
  /** Every update accepted so far, in order (the hub's history, which the tests keep large unless they bound it). */
  updates: HubUpdateRecord[]
  /** Publish requests refused (status), for checks. */
  refused: number[]
  /** Subscribers disconnected for leaving too much unread. */
  slowConsumers: number
  /** The hub itself (open subscriptions: `hub.size`). */
  hub: MercureHub
  close(): Promise<void>
}

const PATH = '/.well-known/mercure'

export async function startMercureHub({
  publisherSecret,
  subscriberSecret = publisherSecret,
  limits = {},
}: {
  publisherSecret: string
  subscriberSecret?: string
  /** The hub's limits; default the plugin's, with a history large enough to keep every update of a test file. */
  limits?: Partial<HubLimits>
}): Promise<MercureTestHub> {
  let slowConsumers = 0
  const hub = new MercureHub({
    publisherSecret,
    subscriberSecret,
    cookieName: 'mercureAuthorization',
    limits: { ...resolveOptions({}).mercure.hub, history: 100_000, ...limits },
    onSlowSubscriber: () => (slowConsumers += 1),
  })
  const handle = hubRequestHandler(hub)
  const refused: number[] = []
  const server = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://hub').pathname !== PATH) {
      res.writeHead(404).end()
      return
    }
    if (req.method === 'POST') res.once('finish', () => res.statusCode >= 400 && refused.push(res.statusCode))
    handle(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    get updates() {
      return hub.history.after('earliest') ?? []
    },
    refused,
    get slowConsumers() {
      return slowConsumers
    },
    hub,
    async close() {
      hub.close()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

export interface SseMessage {
  id: string
  data: string
  /** The `event` field, when the update had a type. */
  event?: string
  /** The `retry` field, when the update had one. */
  retry?: number
}

export interface SseSubscription {
  status: number
  headers: Headers
  /** The body of a refusal (empty for a stream). */
  body: string
  messages: SseMessage[]
  /** Comment blocks received (the first one opens the stream; then heartbeats). */
  comments: number
  /** Resolves when the hub ends the stream (or it is closed or cut). */
  ended: Promise<void>
  /** Resolves with the first message (already received or next) that matches; rejects after `timeout` ms. */
  waitFor(match: (message: SseMessage) => boolean, timeout?: number): Promise<SseMessage>
  close(): void
}

/** Subscribes to a hub over SSE (fetch, streamed): the messages are parsed as they arrive. */
export async function subscribe(
  hubUrl: string,
  topics: string[],
  { headers = {}, query = {} }: { headers?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<SseSubscription> {
  const url = new URL(hubUrl)
  for (const topic of topics) url.searchParams.append('topic', topic)
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value)
  const abort = new AbortController()
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal })
  const messages: SseMessage[] = []
  const waiters = new Set<() => void>()
  let comments = 0
  let ended: Promise<void> = Promise.resolve()
  let body = ''
  if (response.ok && response.body) {
    ended = (async () => {
      const decoder = new TextDecoder()
      let buffer = ''
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true })
          let end: number
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const message: SseMessage = { id: '', data: '' }
            const data: string[] = []
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) message.id = line.slice(4)
              else if (line.startsWith('data: ')) data.push(line.slice(6))
              else if (line.startsWith('event: ')) message.event = line.slice(7)
              else if (line.startsWith('retry: ')) message.retry = Number(line.slice(7))
            }
            if (data.length > 0) messages.push({ ...message, data: data.join('\n') })
            else if (block.startsWith(':')) comments += 1
            for (const wake of waiters) wake()
          }
        }
      } catch {
        /* aborted or cut */
      }
    })()
  } else {
    body = await response.text().catch(() => '')
  }
  return {
    status: response.status,
    headers: response.headers,
    body,
    messages,
    get comments() {
      return comments
    },
    ended,
    waitFor(match, timeout = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match)
          if (!found) return false
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
          return true
        }
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`no matching SSE message within ${timeout} ms; got ${JSON.stringify(messages)}`))
        }, timeout)
        if (!check()) waiters.add(check)
      })
    },
    close: () => abort.abort(),
  }
}
