import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { jwtVerify } from 'jose'

/**
 * A small Mercure hub for the tests (there is no hub package on the
 * registries here; production runs the real hub, see docs/realtime.md). It
 * follows the protocol's parts the service uses:
 * - publish: `POST /.well-known/mercure`, form fields `topic` (repeatable),
 *   `data`, `private`, `id`; `Authorization: Bearer <JWT>` signed HS256 with
 *   the publisher secret, whose `mercure.publish` selectors must match a
 *   topic (401 without a valid JWT, 403 when not allowed); answers the id;
 * - subscribe: `GET /.well-known/mercure?topic=<selector>` (repeatable) as
 *   Server-Sent Events; a selector is `*`, an exact topic or a URI template
 *   (`{var}` one path segment, `{+var}` anything);
 * - private updates reach only subscribers whose JWT (`Authorization:
 *   Bearer` or the `mercureAuthorization` cookie) lists a matching
 *   `mercure.subscribe` selector;
 * - `Last-Event-ID` (header, or the `lastEventID` / `Last-Event-ID` query
 *   parameter): the updates after that id are sent first (`earliest`: all).
 * Not shipped: it lives under test/support only.
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
  /** Every update accepted so far, in order. */
  updates: HubUpdateRecord[]
  /** Publish requests refused (status), for checks. */
  refused: number[]
  close(): Promise<void>
}

const PATH = '/.well-known/mercure'

function templateRegex(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  const pattern = escaped.replace(/\{(\\\+)?[^}]*\}/g, (_m, plus) => (plus ? '.+' : '[^/?#]+'))
  return new RegExp(`^${pattern}$`)
}

/** Whether a topic selector matches a topic. */
export function selectorMatches(selector: string, topic: string): boolean {
  if (selector === '*' || selector === topic) return true
  return selector.includes('{') && templateRegex(selector).test(topic)
}

const anyMatch = (selectors: readonly string[], topics: readonly string[]) =>
  selectors.some((s) => topics.some((t) => selectorMatches(s, t)))

function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return null
}

/** The JWT of a request: Authorization Bearer first, then the mercureAuthorization cookie, then the `authorization` query parameter. */
function tokenOf(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.authorization
  if (header?.startsWith('Bearer ')) return header.slice(7)
  return cookieValue(req.headers.cookie, 'mercureAuthorization') ?? url.searchParams.get('authorization')
}

async function claims(token: string, secret: string): Promise<{ publish?: unknown; subscribe?: unknown } | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] })
    const mercure = payload.mercure
    return typeof mercure === 'object' && mercure !== null
      ? (mercure as { publish?: unknown; subscribe?: unknown })
      : {}
  } catch {
    return null
  }
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Uint8Array[] = []
  for await (const chunk of req) chunks.push(chunk as Uint8Array)
  return Buffer.concat(chunks).toString('utf8')
}

interface Subscriber {
  selectors: string[]
  allowed: string[]
  res: ServerResponse
}

function frame(update: HubUpdateRecord): string {
  return `id: ${update.id}\n${update.data
    .split('\n')
    .map((line) => `data: ${line}\n`)
    .join('')}\n`
}

const delivers = (subscriber: Pick<Subscriber, 'selectors' | 'allowed'>, update: HubUpdateRecord) =>
  anyMatch(subscriber.selectors, update.topics) && (!update.private || anyMatch(subscriber.allowed, update.topics))

export async function startMercureHub({
  publisherSecret,
  subscriberSecret = publisherSecret,
}: {
  publisherSecret: string
  subscriberSecret?: string
}): Promise<MercureTestHub> {
  const updates: HubUpdateRecord[] = []
  const refused: number[] = []
  const subscribers = new Set<Subscriber>()

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://hub')
    if (url.pathname !== PATH) {
      res.writeHead(404).end()
      return
    }
    if (req.method === 'POST') {
      const refuse = (status: number, message: string) => {
        refused.push(status)
        res.writeHead(status, { 'content-type': 'text/plain' }).end(message)
      }
      const token = tokenOf(req, url)
      const granted = token ? await claims(token, publisherSecret) : null
      if (!granted) return refuse(401, 'a valid publisher JWT is required')
      const form = new URLSearchParams(await readBody(req))
      const topics = form.getAll('topic')
      if (topics.length === 0) return refuse(400, 'missing topic')
      if (!anyMatch(stringList(granted.publish), topics)) return refuse(403, 'not allowed to publish on these topics')
      const update: HubUpdateRecord = {
        id: form.get('id') ?? `urn:uuid:${randomUUID()}`,
        topics,
        data: form.get('data') ?? '',
        private: form.get('private') !== null,
      }
      updates.push(update)
      for (const subscriber of subscribers) if (delivers(subscriber, update)) subscriber.res.write(frame(update))
      res.writeHead(200, { 'content-type': 'text/plain' }).end(update.id)
      return
    }
    if (req.method === 'GET') {
      const selectors = url.searchParams.getAll('topic')
      if (selectors.length === 0) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('missing topic')
        return
      }
      const token = tokenOf(req, url)
      let allowed: string[] = []
      if (token) {
        const granted = await claims(token, subscriberSecret)
        if (!granted) {
          res.writeHead(401, { 'content-type': 'text/plain' }).end('invalid subscriber JWT')
          return
        }
        allowed = stringList(granted.subscribe)
      }
      const subscriber: Subscriber = { selectors, allowed, res }
      const lastEventId =
        (req.headers['last-event-id'] as string | undefined) ??
        url.searchParams.get('lastEventID') ??
        url.searchParams.get('Last-Event-ID')
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        'last-event-id': updates.at(-1)?.id ?? 'earliest',
      })
      res.write(':\n\n')
      if (lastEventId) {
        const index = lastEventId === 'earliest' ? -1 : updates.findIndex((u) => u.id === lastEventId)
        if (index !== -1 || lastEventId === 'earliest')
          for (const update of updates.slice(index + 1)) if (delivers(subscriber, update)) res.write(frame(update))
      }
      subscribers.add(subscriber)
      req.on('close', () => subscribers.delete(subscriber))
      return
    }
    res.writeHead(405, { allow: 'GET, POST' }).end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}${PATH}`,
    updates,
    refused,
    async close() {
      for (const subscriber of subscribers) subscriber.res.end()
      subscribers.clear()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

export interface SseMessage {
  id: string
  data: string
}

export interface SseSubscription {
  status: number
  messages: SseMessage[]
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
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder()
      let buffer = ''
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true })
          let end: number
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const block = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            let id = ''
            const data: string[] = []
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) id = line.slice(4)
              else if (line.startsWith('data: ')) data.push(line.slice(6))
            }
            if (data.length > 0) messages.push({ id, data: data.join('\n') })
            for (const wake of waiters) wake()
          }
        }
      } catch {
        /* aborted */
      }
    })()
  } else {
    await response.arrayBuffer().catch(() => undefined)
  }
  return {
    status: response.status,
    messages,
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
