import type { Payload, PayloadRequest } from 'payload'
import type { StoredRead } from '../extension.js'
import { HttpError, notFound, unauthorized } from '../errors.js'
import { addCrossOriginHeaders, decorateResponse, storedAnswer } from '../extensions/requestHooks.js'
import { publicBaseUrl } from '../requestUrl.js'
import { authenticate, refuseCrossSiteWrite } from './caller.js'
import { errorResponse } from './errorResponse.js'
import { notModified } from './etag.js'
import type { ApiResponse, IncomingApiRequest, PipelineResponse, Sent } from './messages.js'
import { runEndpoint } from './runEndpoint.js'
import { apiRuntime, type ApiRuntime } from './runtime.js'
import type { EndpointMatch } from './table.js'
import { recordingDependencies } from '../../core/utils/readDependencies.js'

// The adapters' side of the pipeline (server/, the real-time views) imports it from here.
export type { ApiResponse, IncomingApiRequest } from './messages.js'
// Payload's REST API applies the same cross-site rule (server/payloadRest.ts).
export { originAllowed } from './caller.js'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

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
  const runtime = apiRuntime(payload)
  const response = await answerApiRequest(runtime, incoming)
  if (!response) return null
  // Every answer (errors and preflights too): a front end on another origin must be able to read "Invalid credentials.".
  const path = apiPathOf(incoming.rawPath ?? incoming.url.pathname, runtime.options.apiPrefix)
  if (path !== null) {
    addCrossOriginHeaders(
      runtime.extensions,
      { payload, method: incoming.method, path, headers: incoming.headers },
      response.headers,
    )
  }
  return response
}

async function answerApiRequest(runtime: ApiRuntime, incoming: IncomingApiRequest): Promise<ApiResponse | null> {
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
    tags: response.tags ?? [],
    dependencies: response.dependencies ?? [],
  })
  return notModified(incoming, response) ?? response
}

/** The first extension's stored answer (or fill) for an anonymous-looking GET or HEAD. */
async function storedRead(runtime: ApiRuntime, incoming: IncomingApiRequest, path: string) {
  if (incoming.method !== 'GET' && incoming.method !== 'HEAD') return null
  return storedAnswer(runtime.extensions, {
    payload: runtime.payload,
    method: incoming.method,
    path,
    url: incoming.url,
    headers: incoming.headers,
  })
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
): Promise<PipelineResponse> {
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
    await decorateResponse(runtime.extensions, {
      payload,
      method: incoming.method,
      path,
      user,
      status: response.status,
      headers: response.headers,
      body: response.json,
      tags: response.tags ?? [],
      dependencies,
    })
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

/** An endpoint outside the API prefix (e.g. /sitemap.xml): anonymous, no API headers. A malformed path is simply not one. */
function rootEndpoint(runtime: ApiRuntime, method: string, pathname: string): EndpointMatch | null {
  try {
    const found = runtime.table.lookup(method, pathname, true)
    return found.kind === 'found' ? found.match : null
  } catch {
    return null
  }
}
