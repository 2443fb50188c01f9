import type { IncomingMessage, ServerResponse } from 'node:http'
import { bearerToken, subscriberToken, verifyClaims } from './auth.js'
import { type MercureHub, UpdateRefused } from './hub.js'
import type { StandingCheck } from './subscribers.js'
import { matchesEvery } from './topics.js'
import { nodeClientAddress } from '../../../core/utils/clientAddress.js'

/**
 * The Mercure protocol over HTTP for one hub (mount it at
 * `/.well-known/mercure`; the path is the caller's business):
 * - `GET ?topic=<selector>` (repeated): a Server-Sent Events stream. A JWT
 *   (`Authorization: Bearer`, the subscriber cookie, or `?authorization=`)
 *   that does not verify is a 401; without one the subscriber gets the
 *   public updates only. `Last-Event-ID` (header, or the `lastEventID`
 *   query parameter) replays the kept updates after that id (`earliest`:
 *   all of them). Beyond `maxSubscribers`, or while stopping: 503; beyond
 *   the client's share (`maxSubscribersPerClient`): 429; more selectors, or
 *   longer ones, than the limits allow: 400 (JSON naming the limit). A JWT
 *   whose session no longer stands (hub option `standing`): 401.
 * - `POST` (form fields `topic` repeated, `data`, `private`, `id`, `type`,
 *   `retry`): needs `Authorization: Bearer` with a publisher JWT (401
 *   without a valid one) whose `mercure.publish` selectors match every
 *   topic (403); answers the update's id. Never a cookie: a page of another
 *   site could publish with it.
 * - `OPTIONS`: the CORS preflight, for the origins the hub allows.
 */
export function hubRequestHandler(hub: MercureHub): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(hub, req, res).catch(() => {
      if (res.headersSent) res.destroy()
      else text(res, 500, 'The hub failed to answer.')
    })
  }
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  // eslint-disable-next-line no-restricted-syntax -- the Mercure hub is a server of its own, outside the pipeline
  'Cache-Control': 'private, no-cache, no-store, must-revalidate, max-age=0',
  // nginx and some proxies buffer responses unless told not to: an update must go out when published.
  'X-Accel-Buffering': 'no',
}

function text(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end(message)
}

/** Credentialed CORS for an allowed origin (the origin itself, never `*`); nothing for the others. */
function corsHeaders(hub: MercureHub, req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Vary', 'Origin')
  const origin = req.headers.origin
  if (!origin || !hub.options.allowsOrigin?.(origin)) return
  res.setHeader('Access-Control-Allow-Origin', origin)
  res.setHeader('Access-Control-Allow-Credentials', 'true')
}

async function handle(hub: MercureHub, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://hub')
  corsHeaders(hub, req, res)
  if (req.method === 'GET') return subscribe(hub, req, res, url)
  if (req.method === 'POST') return publish(hub, req, res)
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      Allow: 'GET, POST, OPTIONS',
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'Authorization, Last-Event-ID, Cache-Control, Content-Type',
      'Access-Control-Max-Age': '3600',
    })
    res.end()
    return
  }
  text(res, 405, 'Method Not Allowed', { Allow: 'GET, POST, OPTIONS' })
}

function json(
  res: ServerResponse,
  status: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))
}

/** Why the selectors of a subscription are refused (400, naming the limit), or null. */
function selectorsRefusal(hub: MercureHub, selectors: string[]): Record<string, unknown> | null {
  const { maxSelectors, maxSelectorLength } = hub.options.limits
  if (selectors.length > maxSelectors)
    return {
      error: `A subscription takes at most ${maxSelectors} topic selectors (got ${selectors.length}).`,
      limit: 'mercure.hub.maxSelectors',
      max: maxSelectors,
    }
  const long = selectors.find((selector) => selector.length > maxSelectorLength)
  if (long !== undefined)
    return {
      error: `A topic selector has at most ${maxSelectorLength} characters (got one of ${long.length}).`,
      limit: 'mercure.hub.maxSelectorLength',
      max: maxSelectorLength,
    }
  return null
}

async function subscribe(hub: MercureHub, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const selectors = url.searchParams.getAll('topic')
  if (selectors.length === 0) return text(res, 400, 'Missing "topic" parameter.')
  const tooMany = selectorsRefusal(hub, selectors)
  if (tooMany) return json(res, 400, tooMany)
  const token = subscriberToken(req, url, hub.options.cookieName)
  let allowed: string[] = []
  let client = `address:${nodeClientAddress(req) ?? 'unknown'}`
  let standing: StandingCheck = null
  if (token) {
    const claims = await verifyClaims(token, hub.options.subscriberSecret)
    if (!claims) return text(res, 401, 'The subscriber JWT is not valid.')
    const check = hub.options.standing
    if (check && claims.subject) {
      let stands: boolean
      try {
        stands = await check(claims.payload)
      } catch {
        return text(res, 503, 'The subscriber JWT could not be checked now; retry later.', { 'Retry-After': '10' })
      }
      if (!stands)
        return text(
          res,
          401,
          'The subscriber JWT no longer speaks for its user: the session ended (logout), or the account was disabled or changed.',
        )
      standing = () => check(claims.payload)
    }
    allowed = claims.subscribe
    if (claims.subject) client = `user:${claims.subject}`
  }
  const refusal = hub.refusal(client)
  if (refusal) {
    const headers = { 'Retry-After': String(refusal.retryAfter) }
    if (refusal.status === 429)
      return json(
        res,
        429,
        {
          error: refusal.message,
          limit: 'mercure.hub.maxSubscribersPerClient',
          max: hub.options.limits.maxSubscribersPerClient,
        },
        headers,
      )
    return text(res, refusal.status, refusal.message, headers)
  }
  const header = req.headers['last-event-id']
  const lastEventId =
    (typeof header === 'string' && header) ||
    url.searchParams.get('lastEventID') ||
    url.searchParams.get('Last-Event-ID') ||
    null
  res.writeHead(200, { ...SSE_HEADERS, 'Last-Event-ID': hub.history.lastId() })
  // A first comment sends the headers at once: the client knows it is subscribed.
  res.write(':\n\n')
  hub.subscribe(res, { selectors, allowed, client, standing }, lastEventId)
}

/** A form body, read up to `limit` bytes; null beyond. */
async function readForm(req: IncomingMessage, limit: number): Promise<URLSearchParams | null> {
  const chunks: Uint8Array[] = []
  let length = 0
  for await (const chunk of req as AsyncIterable<Uint8Array>) {
    length += chunk.length
    if (length > limit) return null
    chunks.push(chunk)
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
}

async function publish(hub: MercureHub, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const token = bearerToken(req)
  const claims = token ? await verifyClaims(token, hub.options.publisherSecret) : null
  if (!claims) return text(res, 401, 'A valid publisher JWT is required (Authorization: Bearer).')
  // Form encoding may triple the data's bytes; the data itself is bounded by the hub.
  const form = await readForm(req, 3 * hub.options.limits.maxBufferedBytes + 65_536)
  if (!form) return text(res, 413, 'The update is too large.', { Connection: 'close' })
  const topics = form.getAll('topic')
  if (topics.length === 0) return text(res, 400, 'Missing "topic" field.')
  if (!matchesEvery(claims.publish, topics)) return text(res, 403, 'Not allowed to publish on these topics.')
  const retry = form.get('retry')
  if (retry !== null && !/^\d{1,9}$/.test(retry)) return text(res, 400, '"retry" must be a number of milliseconds.')
  try {
    const id = hub.publish({
      topics,
      data: form.get('data') ?? '',
      private: form.get('private') !== null,
      id: form.get('id'),
      type: form.get('type'),
      retry: retry === null ? null : Number(retry),
    })
    text(res, 200, id)
  } catch (error) {
    if (!(error instanceof UpdateRefused)) throw error
    text(res, error.status, error.message)
  }
}
