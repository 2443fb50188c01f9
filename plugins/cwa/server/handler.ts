import { Readable } from 'node:stream'
import { getPayload, type Payload, type SanitizedConfig } from 'payload'
import { handleApiRequest, type IncomingApiRequest } from '../hydra/pipeline/handle.js'
import { CLIENT_ADDRESS_HEADER, lastForwardedFor } from '../core/utils/clientAddress.js'
import { environmentJwtKeys, type JwtKeys, JwtKeysMissingError, useJwtKeys } from '../session/index.js'
import { withRequestReads } from './primaryReads.js'

export interface CwaHandlerOptions {
  /** A started Payload, or the config to start one from on the first request (getPayload caches it). */
  payload?: Payload
  config?: ConfigSource
  /** The JWT key pair; default: JWT_SECRET_KEY, JWT_PUBLIC_KEY and JWT_PASSPHRASE (generated in development). */
  jwtKeys?: JwtKeys
}

/** A config, its promise, or a function loading it on the first request (so that `next build` never evaluates it). */
export type ConfigSource = SanitizedConfig | Promise<SanitizedConfig> | (() => Promise<SanitizedConfig>)

const resolveConfig = (source: ConfigSource) => (typeof source === 'function' ? source() : source)

/** A Fetch API handler: `Request` in, `Response` out (404 for a URL the API does not serve). */
export type CwaFetchHandler = (request: Request) => Promise<Response>

/**
 * The request's URL on the host the client addressed (its Host header), as
 * the Express adapter sees it: some servers (Next.js) build `request.url`
 * on their own listening host name instead.
 */
function urlAsAddressed(request: Request): URL {
  const url = new URL(request.url)
  const host = request.headers.get('host')
  if (!host || host === url.host) return url
  try {
    return new URL(`${url.pathname}${url.search}`, `${url.protocol}//${host}`)
  } catch {
    return url // a Host header that makes no URL: the server's own name
  }
}

/**
 * The client address behind a Fetch handler: the last X-Forwarded-For entry,
 * the one the nearest proxy added (Next.js sets the header to the socket's
 * address when no proxy did). Whatever the client sent as
 * CLIENT_ADDRESS_HEADER is replaced. Run it behind a proxy that sets
 * X-Forwarded-For: otherwise a client talking to the server directly can
 * name its own address to the throttles.
 */
function withClientAddress(request: Request): Headers {
  const headers = new Headers(request.headers)
  headers.delete(CLIENT_ADDRESS_HEADER)
  const address = lastForwardedFor(request.headers.get('x-forwarded-for'))
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address)
  return headers
}

/** The Fetch API request as the pipeline reads it (the body is read only by endpoints that take one). */
export function incomingFromFetch(request: Request): IncomingApiRequest {
  return {
    method: request.method,
    url: urlAsAddressed(request),
    headers: withClientAddress(request),
    body: request.body,
  }
}

/**
 * The JSON-LD API on Fetch API `Request`/`Response`, as Payload's own REST
 * handlers work: mount it in any server that speaks Fetch (Next.js route
 * handlers, Bun, Deno, Hono...).
 */
export function createCwaHandler(options: CwaHandlerOptions): CwaFetchHandler {
  let started: Promise<Payload> | null = null
  let refusalLogged = false
  const payloadOf = () => {
    started ??= (async () => {
      const payload = options.payload ?? (await getPayload({ config: await resolveConfig(options.config!) }))
      if (options.jwtKeys) useJwtKeys(payload, options.jwtKeys)
      // The environment's keys, checked before the first answer: in production without JWT_* nothing is served.
      else
        await environmentJwtKeys().catch((error: unknown) => {
          if (error instanceof JwtKeysMissingError && !refusalLogged) payload.logger.error(error.message)
          refusalLogged = true
          throw error
        })
      return payload
    })().catch((error: unknown) => {
      started = null
      throw error
    })
    return started
  }
  if (!options.payload && !options.config) throw new Error('createCwaHandler needs a payload or a config.')
  return async (request) => {
    let payload: Payload
    try {
      payload = await payloadOf()
    } catch (error) {
      if (!(error instanceof JwtKeysMissingError)) throw error
      return new Response(error.message, { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    }
    const response = await withRequestReads(
      payload,
      request.method,
      (name) => request.headers.get(name),
      () => handleApiRequest(payload, incomingFromFetch(request)),
    )
    if (!response)
      return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
    const body = response.body instanceof Readable ? (Readable.toWeb(response.body) as ReadableStream) : response.body
    return new Response(body as BodyInit | null, { status: response.status, headers: response.headers })
  }
}
