import { Readable } from 'node:stream'
import type { PayloadRequest } from 'payload'
import type { EndpointResult } from '../endpoint.js'
import { MAX_ANONYMOUS_BODY_BYTES, MAX_BODY_BYTES, readJsonBody } from './body.js'
import { contextOf } from './context.js'
import { etagOf } from './etag.js'
import { formatBody } from './format.js'
import { asServed } from './serve.js'
import { rewrittenInput } from '../extensions/requestHooks.js'
import { admit, finish } from './invoke.js'
import { runHandler } from './runHandler.js'
import { type ApiResponse, type IncomingApiRequest, JSONLD, type PipelineResponse, type Sent } from './messages.js'
import type { ApiRuntime } from './runtime.js'
import type { EndpointMatch } from './table.js'

/**
 * Runs the endpoint a request matched, for a caller already known: builds
 * the request's context (once: every stage after this reads it), enforces
 * the endpoint's security, reads the body, lets the profiles rewrite it,
 * runs the handler, writes the cache policy, formats its data (normalizes
 * or serializes it, recording the IRIs it names) and lets the profiles
 * rewrite the answer.
 */
export async function runEndpoint(
  runtime: ApiRuntime,
  incoming: IncomingApiRequest,
  match: EndpointMatch,
  user: PayloadRequest['user'] | null,
  headers: Headers,
  sent: Sent,
): Promise<PipelineResponse> {
  const { endpoint } = match
  const ctx = await contextOf(runtime, incoming.url, incoming.headers, user)
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
  // A compatibility profile may accept IRIs in other shapes (rewriteInput) and serve them in others (its profile): one place each.
  const input = await rewrittenInput(ctx.extensions, body, ctx)
  const stream = streamed ? incoming.body : null
  const request = {
    method: incoming.method,
    params: match.params,
    body: input,
    stream,
    url: incoming.url,
    responseHeaders: headers,
  }
  // Handlers return data: the cache policy is written here, the body normalized or serialized (format.ts).
  const result = finish(ctx, endpoint, await runHandler(ctx, endpoint, request), request)
  const { json, tags, apiPaths } = await formatBody(ctx, result)
  // decorateResponse hooks see the body with the service's own IRIs (cache tags); a profile writes what is sent.
  const served =
    json === undefined ? json : await asServed(ctx.extensions, { payload: ctx.payload, ctx }, json, apiPaths)
  return { ...toResponse(result, served, headers, incoming.method === 'HEAD'), json, tags }
}

/** A handler's result as the adapters send it: its headers, its body with its content type, and an ETag for a 200. */
function toResponse(result: EndpointResult, json: unknown, headers: Headers, head: boolean): ApiResponse {
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
  } else if (json !== undefined) {
    headers.set('Content-Type', JSONLD)
    body = JSON.stringify(json)
  }
  if (body instanceof Readable) {
    // A stream is never read twice: a HEAD request releases it unread.
    if (head) body.destroy()
    return { status: result.status, headers, body: head ? null : body }
  }
  if (body !== null && result.status === 200) headers.set('ETag', etagOf(body, result.version))
  return { status: result.status, headers, body: head ? null : body }
}
