import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import type { HydraContext } from '../context.js'
import { apiRuntime, type ApiRuntime } from './runtime.js'

/**
 * Builds the per-request context: what the pipeline resolved for this
 * Payload instance (registry, options, the extensions every stage calls),
 * the caller, the Payload request (for every Local API call), query and
 * headers. For a request outside the pipeline (a Payload REST endpoint, a
 * real-time view) the same resolved parts are taken from the instance's runtime.
 */
export async function buildContext(
  payload: Payload,
  url: URL,
  headers: Headers,
  user: PayloadRequest['user'] | null,
): Promise<HydraContext> {
  return contextOf(apiRuntime(payload), url, headers, user)
}

/** The context of one request the pipeline runs, from its runtime (resolved once per Payload instance). */
export async function contextOf(
  runtime: Pick<ApiRuntime, 'payload' | 'registry' | 'options' | 'extensions'>,
  url: URL,
  headers: Headers,
  user: PayloadRequest['user'] | null,
): Promise<HydraContext> {
  const { payload, registry, options, extensions } = runtime
  const req = await createLocalReq({ user: user ?? undefined, req: { headers, url: url.href } }, payload)
  if (!user) req.user = null
  return {
    payload,
    registry,
    options,
    extensions,
    req,
    user,
    query: url.searchParams,
    headers,
    requestPath: url.pathname,
    memo: new Map(),
  }
}
