import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import type { Payload, PayloadRequest } from 'payload'
import type { EndpointResult } from '../endpoint.js'
import type { StoredRead } from '../extension.js'
import { errorBody } from '../errorBody.js'
import { crossSiteWriteRefusal } from '../crossSite.js'
import { classifyError, forbidden, HttpError, notFound, unauthorized } from '../errors.js'
import { correlationId, databaseError, describeDatabaseError, requestInput } from '../requestInput.js'
import { publicBaseUrl } from '../requestUrl.js'
import { MAX_ANONYMOUS_BODY_BYTES, MAX_BODY_BYTES, readJsonBody } from './body.js'
import { buildContext } from './context.js'
import { admit, finish } from './invoke.js'
import { apiRuntime, type ApiRuntime } from './runtime.js'
import type { EndpointMatch } from './table.js'
import { recordingDependencies } from '../../core/utils/readDependencies.js'
import { isTransientConflict } from '../../core/utils/databaseUnavailable.js'

export const JSONLD = 'application/ld+json; charset=utf-8'

/** A request as the adapters (Fetch, Express) hand it over. */
export interface IncomingApiRequest {
  method: string
  /** Absolute URL as the client sent it. */
  url: URL
  /**
   * The path exactly as sent, when the adapter has it: a URL object resolves
   * dot segments (`/users/%2e%2e` becomes `/`), and the API must see the
   * segment the client wrote.
   */
  rawPath?: string
  headers: Headers
  /** The body as a stream of bytes, read only by endpoints that take one. */
  body: AsyncIterable<Uint8Array> | null
}

/** What the adapters send back. */
export interface ApiResponse {
  status: number
  headers: Headers
  /** A stream (a file download) is sent as it is read. */
  body: string | Uint8Array | Readable | null
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/** What the client sent, kept for the error answer (a database error is the client's only when it names a value sent). */
interface Sent {
  url: URL
  body?: unknown
}

/** The path under the API prefix, or null when the URL is outside it. */
function apiPathOf(pathname: string, prefix: string): string | null {
  if (prefix === '') return pathname
  if (pathname === prefix) return '/'
  return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : null
}

/**
 * The JSON-LD API for one request: finds the endpoint in the table,
 * authenticates the caller (extensions' authenticate hooks), enforces the
 * endpoint's security (anonymous writes that are not public, roles), reads
 * the body, runs the handler, serializes its output, writes the cache
 * policy and lets extensions decorate the response. Every error becomes a
 * Hydra error body. Returns null for a URL the API does not serve (outside the
 * prefix and no root endpoint), so an adapter can hand it on.
 */
export async function handleApiRequest(payload: Payload, incoming: IncomingApiRequest): Promise<ApiResponse | null> {
  const response = await answerApiRequest(payload, incoming)
  if (!response) return null
  // Every answer (errors and preflights too): a front end on another origin must be able to read "Invalid credentials.".
  const runtime = apiRuntime(payload)
  const path = apiPathOf(incoming.rawPath ?? incoming.url.pathname, runtime.options.apiPrefix)
  if (path !== null) {
    for (const extension of runtime.extensions) {
      extension.crossOrigin?.({ payload, method: incoming.method, path, headers: incoming.headers }, response.headers)
    }
  }
  return response
}

async function answerApiRequest(payload: Payload, incoming: IncomingApiRequest): Promise<ApiResponse | null> {
  const runtime = apiRuntime(payload)
  const pathname = incoming.rawPath ?? incoming.url.pathname
  const sent: Sent = { url: incoming.url }
  const root = rootEndpoint(runtime, incoming.method, pathname)
  if (root) {
    const headers = new Headers()
    try {
      refuseCrossSiteWrite(runtime, incoming)
      return await runEndpoint(runtime, incoming, root, null, headers, sent)
    } catch (error) {
      return await errorResponse(runtime, error, {
        method: incoming.method,
        endpointPath: root.endpoint.path,
        anonymous: true,
        headers,
        sent,
      })
    }
  }
  const path = apiPathOf(pathname, runtime.options.apiPrefix)
  if (path === null) return null

  let stored: StoredRead | null
  try {
    stored = await storedRead(runtime, incoming, path)
  } catch (error) {
    // The store is in the database too: down or frozen, it answers as the rest does (503 with Retry-After).
    return errorResponse(runtime, error, {
      method: incoming.method,
      endpointPath: '(stored reads)',
      anonymous: true,
      headers: new Headers(),
      sent,
    })
  }
  if (stored && 'answer' in stored) {
    const answer: ApiResponse = {
      status: stored.answer.status,
      headers: stored.answer.headers,
      body: incoming.method === 'HEAD' ? null : stored.answer.body,
    }
    return notModified(incoming, answer) ?? answer
  }
  if (!stored) {
    const response = await answerInPipeline(runtime, incoming, path, sent)
    return notModified(incoming, response) ?? response
  }
  const response = await stored.fill.run(() => answerInPipeline(runtime, incoming, path, sent))
  await stored.fill.keep({
    status: response.status,
    headers: response.headers,
    body: typeof response.body === 'string' ? response.body : null,
    json: response.json,
    dependencies: response.dependencies ?? [],
  })
  return notModified(incoming, response) ?? response
}

/** The first extension's stored answer (or fill) for an anonymous-looking GET or HEAD. */
async function storedRead(runtime: ApiRuntime, incoming: IncomingApiRequest, path: string) {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') return null
  for (const extension of runtime.extensions) {
    const found = await extension.answerStored?.({
      payload: runtime.payload,
      method: incoming.method,
      path,
      url: incoming.url,
      headers: incoming.headers,
    })
    if (found) return found
  }
  return null
}

/**
 * Authenticates, runs the endpoint and lets the extensions decorate its
 * answer (which keeps its JSON-LD body for them); the caller answers a
 * client that holds it already (304).
 */
async function answerInPipeline(
  runtime: ApiRuntime,
  incoming: IncomingApiRequest,
  path: string,
  sent: Sent,
): Promise<ApiResponse & { json?: unknown; dependencies?: string[] }> {
  const payload = runtime.payload
  const headers = new Headers()
  const base = publicBaseUrl(payload.config.serverURL, incoming.url)
  headers.set(
    'Link',
    `<${base}${runtime.options.apiPrefix}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
  )
  let user: PayloadRequest['user'] | null = null
  let endpointPath = '(no endpoint)'
  try {
    // Before authenticating: a forged request must not even refresh a session.
    refuseCrossSiteWrite(runtime, incoming)
    user = await authenticate(runtime, incoming, path, headers)
    // The same URL answers differently per caller: shared caches key on the credentials, never store a signed-in answer.
    headers.set('Vary', 'Cookie, Authorization')
    if (user) headers.set('Cache-Control', 'private, no-store')
    const anonymousWrite = !user && !SAFE.has(incoming.method)
    const lookup = runtime.table.lookup(incoming.method, path, false)
    // A path the API does not have is a 404 for everyone: there is nothing to authenticate for.
    if (lookup.kind === 'none') throw notFound('No route matches this path.')
    if (lookup.kind === 'method') {
      // A CORS preflight (or a client asking what the path allows): the methods, no body.
      if (incoming.method === 'OPTIONS') {
        headers.set('Allow', lookup.allowed.join(', '))
        return { status: 204, headers, body: null }
      }
      if (anonymousWrite && !lookup.publicWrite) throw unauthorized()
      throw new HttpError(405, 'Method Not Allowed', { Allow: lookup.allowed.join(', ') })
    }
    endpointPath = lookup.match.endpoint.path
    // What the answer depended on besides its body (shared state a read consulted: core/utils/readDependencies).
    const recorded = await recordingDependencies(() =>
      runEndpoint(runtime, incoming, lookup.match, user, headers, sent),
    )
    const response = recorded.result
    const dependencies = [...recorded.tags]
    for (const extension of runtime.extensions) {
      await extension.decorateResponse?.({
        payload,
        method: incoming.method,
        path,
        user,
        status: response.status,
        headers: response.headers,
        body: response.json,
        dependencies,
      })
    }
    return { ...response, dependencies }
  } catch (error) {
    return await errorResponse(runtime, error, {
      method: incoming.method,
      endpointPath,
      anonymous: !user,
      headers,
      sent,
    })
  }
}

/** Whether an extension names this origin as one of the site's own front ends. */
export function originAllowed(runtime: ApiRuntime, origin: string): boolean {
  return runtime.extensions.some((extension) => extension.allowsOrigin?.(origin, runtime.payload) === true)
}

/** A state-changing request sent by a page of another site (CSRF): 403 (see crossSite.ts). */
function refuseCrossSiteWrite(runtime: ApiRuntime, incoming: IncomingApiRequest): void {
  const refusal = crossSiteWriteRefusal(incoming.method, incoming.headers, runtime.payload, (origin) =>
    originAllowed(runtime, origin),
  )
  if (refusal) throw forbidden(refusal)
}

/** An endpoint outside the API prefix (e.g. /sitemap.xml): anonymous, no API headers. A malformed path is simply not one. */
function rootEndpoint(runtime: ApiRuntime, method: string, pathname: string): EndpointMatch | null {
  try {
    const found = runtime.table.lookup(method, pathname, true)
    return found.kind === 'found' ? found.match : null
  } catch {
    return null
  }
}

async function authenticate(runtime: ApiRuntime, incoming: IncomingApiRequest, path: string, responseHeaders: Headers) {
  for (const extension of runtime.extensions) {
    if (!extension.authenticate) continue
    const user = await extension.authenticate({
      payload: runtime.payload,
      method: incoming.method,
      path,
      headers: incoming.headers,
      responseHeaders,
    })
    if (user !== undefined) return user
  }
  return null
}

async function runEndpoint(
  runtime: ApiRuntime,
  incoming: IncomingApiRequest,
  match: EndpointMatch,
  user: PayloadRequest['user'] | null,
  headers: Headers,
  sent: Sent,
): Promise<ApiResponse & { json?: unknown; dependencies?: string[] }> {
  const { endpoint } = match
  const ctx = await buildContext(runtime.payload, incoming.url, incoming.headers, user)
  // The endpoint's security and no-store, before anything in the body is looked at.
  await admit(ctx, endpoint, incoming.method, headers)
  // Anonymous callers (login, registration, form submits) send small bodies: 64 KiB, against 21 MiB signed in.
  const limit = user ? MAX_BODY_BYTES : MAX_ANONYMOUS_BODY_BYTES
  const streamed = endpoint.body === 'stream'
  const body = streamed
    ? undefined
    : await readJsonBody(
        incoming.method,
        incoming.headers.get('content-type'),
        incoming.body,
        limit,
        incoming.headers.get('content-length'),
        endpoint.bodyTypes,
      )
  sent.body = body
  // A compatibility profile may accept IRIs in other shapes (rewriteInput) and serve them in others (rewriteOutput): one place each.
  let input = body
  for (const extension of runtime.extensions)
    if (extension.rewriteInput && input !== undefined) input = await extension.rewriteInput(input, ctx)
  const stream = streamed ? incoming.body : null
  const request = {
    method: incoming.method,
    params: match.params,
    body: input,
    stream,
    url: incoming.url,
    responseHeaders: headers,
  }
  // Handlers return data: the serializer adds @context, @id and @type, and the cache policy is written here.
  const result = finish(ctx, endpoint, await endpoint.handler(ctx, request), request)
  // decorateResponse hooks see the body with the service's own IRIs (cache tags), before any profile rewrites them.
  const json = result.body
  if (result.body !== undefined && !result.raw) {
    for (const extension of runtime.extensions)
      if (extension.rewriteOutput)
        result.body = await extension.rewriteOutput(result.body, { payload: runtime.payload, ctx })
  }
  return { ...toResponse(result, headers, incoming.method === 'HEAD'), json }
}

/**
 * A weak validator of a body, as Express computes it (length and SHA-1), so caches can revalidate a read;
 * led by the record's version when the answer is one record, so a writer can send it back as If-Match.
 */
function etagOf(body: string | Uint8Array, version?: string | null): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  const hash = `${length.toString(16)}-${createHash('sha1').update(body).digest('base64').substring(0, 27)}`
  return `W/"${version ? `${version}.` : ''}${hash}"`
}

/** A read the client already holds (If-None-Match names its ETag): 304 without a body. */
function notModified(incoming: IncomingApiRequest, response: ApiResponse): ApiResponse | null {
  if ((incoming.method !== 'GET' && incoming.method !== 'HEAD') || response.status !== 200) return null
  const etag = response.headers.get('ETag')
  const wanted = incoming.headers.get('if-none-match')
  if (!etag || !wanted || /(?:^|,)\s*no-cache\s*(?:,|$)/.test(incoming.headers.get('cache-control') ?? '')) return null
  const strip = (tag: string) => tag.trim().replace(/^W\//, '')
  if (wanted.trim() !== '*' && !wanted.split(',').some((tag) => strip(tag) === strip(etag))) return null
  for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) response.headers.delete(name)
  return { status: 304, headers: response.headers, body: null }
}

function toResponse(result: EndpointResult, headers: Headers, head: boolean): ApiResponse {
  if (result.headers instanceof Headers) {
    for (const [name, value] of result.headers) if (name !== 'set-cookie') headers.set(name, value)
    for (const cookie of result.headers.getSetCookie()) headers.append('Set-Cookie', cookie)
  } else {
    for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value)
  }
  let body: string | Uint8Array | Readable | null = null
  if (result.raw) {
    headers.set('Content-Type', result.raw.contentType)
    body = result.raw.data
  } else if (result.body !== undefined) {
    headers.set('Content-Type', JSONLD)
    body = JSON.stringify(result.body)
  }
  if (body instanceof Readable) {
    // A stream is never read twice: a HEAD request releases it unread.
    if (head) body.destroy()
    return { status: result.status, headers, body: head ? null : body }
  }
  if (body !== null && result.status === 200) headers.set('ETag', etagOf(body, result.version))
  return { status: result.status, headers, body: head ? null : body }
}

/**
 * Every error becomes a JSON-LD body. A 500 carries a correlation id in its
 * body and in its log line, logged under the endpoint's template (no token
 * in a path reaches the log); a database error is logged by its code and
 * message, never with the query's parameters.
 */
async function errorResponse(
  runtime: ApiRuntime,
  error: unknown,
  request: { method: string; endpointPath: string; anonymous: boolean; headers: Headers; sent: Sent },
): Promise<ApiResponse> {
  const classified = classifyError(
    error,
    request.anonymous,
    request.method,
    requestInput(request.sent.url, request.sent.body),
  )
  let reference: string | undefined
  if (classified.status === 500) {
    reference = correlationId()
    const database = databaseError(error)
    const logged = database ? { database: describeDatabaseError(database, error) } : { err: error }
    runtime.payload.logger.error(
      { ...logged, correlationId: reference, method: request.method, path: request.endpointPath },
      `JSON-LD request failed (correlation id ${reference})`,
    )
  } else if (isTransientConflict(error)) {
    const database = databaseError(error)
    runtime.payload.logger.warn(
      {
        ...(database ? { database: describeDatabaseError(database) } : {}),
        method: request.method,
        path: request.endpointPath,
      },
      'JSON-LD request rolled back by a concurrent write (answered 503, Retry-After)',
    )
  } else if (classified.status >= 500) {
    runtime.payload.logger.error(
      { err: error, method: request.method, path: request.endpointPath },
      'JSON-LD request failed',
    )
  } else {
    // A database error about a value the client sent: the client's, but still on record (code and message, no parameters).
    const database = databaseError(error)
    if (database) {
      runtime.payload.logger.info(
        { database: describeDatabaseError(database), method: request.method, path: request.endpointPath },
        'JSON-LD request refused: the database cannot process a value sent',
      )
    }
  }
  if (classified instanceof HttpError) {
    for (const [name, value] of Object.entries(classified.headers)) request.headers.set(name, value)
  }
  request.headers.set('Content-Type', JSONLD)
  let json: unknown = withReference(errorBody(classified, runtime.options.apiPrefix), reference)
  for (const extension of runtime.extensions)
    if (extension.rewriteOutput) json = await extension.rewriteOutput(json, { payload: runtime.payload, ctx: null })
  const body = request.method === 'HEAD' ? null : JSON.stringify(json)
  return { status: classified.status, headers: request.headers, body }
}

/** A 500's correlation id, in its description too (what a client shows and reports). */
function withReference(body: Record<string, unknown>, reference: string | undefined): Record<string, unknown> {
  if (!reference) return body
  const detail = `${String(body.detail)} (correlation id ${reference})`
  return { ...body, detail, description: detail, message: detail, correlationId: reference }
}
