import type { HydraContext } from '../context.js'
import type { ApiRequest, CachePolicy, Endpoint, EndpointResult } from '../endpoint.js'
import { enforceSecurity } from '../security.js'
import { runHandler } from './runHandler.js'

/**
 * The policy half of running an endpoint, in one place: its `security`
 * checked before the body is read and the handler runs, its `cache` written
 * on the answer (format.ts makes the body of what the handler returned).
 * No handler checks a role or writes Cache-Control itself.
 */

/** Writes a cache policy on the answer's headers (see CachePolicy). */
function writeCachePolicy(headers: Headers, policy: CachePolicy, ctx: HydraContext, method: string, status?: number) {
  if (policy === 'no-store') {
    headers.set('Cache-Control', 'private, no-store')
    return
  }
  // A lifetime is for a 200 to an anonymous read; a signed-in caller keeps the pipeline's private, no-store.
  if (ctx.user || status !== 200 || (method !== 'GET' && method !== 'HEAD')) return
  const directives = ['public', `max-age=${policy.maxAge}`]
  if (policy.sharedMaxAge !== undefined) directives.push(`s-maxage=${policy.sharedMaxAge}`)
  headers.set('Cache-Control', directives.join(', '))
}

/**
 * Before the body is read: a `no-store` endpoint's answer is private from
 * here on (its refusals and errors too), and its security is enforced
 * (401 anonymous, 403 signed in): a refused caller learns nothing from the body.
 */
export async function admit(ctx: HydraContext, endpoint: Endpoint, method: string, headers: Headers): Promise<void> {
  if (endpoint.cache === 'no-store') writeCachePolicy(headers, 'no-store', ctx, method)
  await enforceSecurity(ctx, method, endpoint.security)
}

/**
 * What a handler returned, its cache policy (the answer's own, else the
 * endpoint's) written on the response headers: the data is left for the
 * pipeline to format.
 */
export function finish(
  ctx: HydraContext,
  endpoint: Endpoint,
  result: EndpointResult,
  request: Pick<ApiRequest, 'method' | 'responseHeaders'>,
): EndpointResult {
  const policy = result.cache ?? endpoint.cache
  if (policy) writeCachePolicy(request.responseHeaders, policy, ctx, request.method, result.status)
  return result
}

/**
 * Runs an endpoint for a request already read, as the pipeline does: its
 * security, its handler, its cache policy (its data formatted by the
 * pipeline that answers). For endpoints
 * that answer through another one (the compat profile's), so the other's
 * policy holds there too.
 */
export async function callEndpoint(
  ctx: HydraContext,
  endpoint: Endpoint,
  request: ApiRequest,
): Promise<EndpointResult> {
  await admit(ctx, endpoint, request.method, request.responseHeaders)
  return finish(ctx, endpoint, await runHandler(ctx, endpoint, request), request)
}
