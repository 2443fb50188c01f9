import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import type { HydraContext } from '../context.js'
import { getOptions, getRegistry } from '../../core/registry.js'

/** Builds the per-request context: caller, Payload request (for every Local API call), query, headers. */
export async function buildContext(
  payload: Payload,
  url: URL,
  headers: Headers,
  user: PayloadRequest['user'] | null,
): Promise<HydraContext> {
  const req = await createLocalReq({ user: user ?? undefined, req: { headers, url: url.href } as never }, payload)
  if (!user) req.user = null
  return {
    payload,
    registry: getRegistry(payload.config),
    options: getOptions(payload.config),
    req,
    user,
    query: url.searchParams,
    headers,
    requestPath: url.pathname,
    memo: new Map(),
  }
}
