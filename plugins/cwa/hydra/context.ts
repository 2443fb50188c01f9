import type { Payload, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../core/options.js'
import type { ResourceRegistry } from '../core/registry.js'

/**
 * Everything one JSON-LD request needs: the Payload instance, what the
 * plugin resolved for it (registry, options, extensions), the caller and a
 * Payload request object passed to every Local API call (so access
 * functions see the caller and hooks share one transaction).
 */
export interface HydraContext {
  payload: Payload
  registry: ResourceRegistry
  options: ResolvedCwaOptions
  // `extensions`, the resolved hooks, is declared beside them (extension.ts): the hooks take this context, so the
  // two types name each other, and one module importing the other keeps the library free of import cycles.
  /** The Payload request: carries the user; passed as `req` to the Local API. */
  req: PayloadRequest
  user: PayloadRequest['user'] | null
  /** Query parameters of the HTTP request. */
  query: URLSearchParams
  /** Headers of the HTTP request (lower-case names). */
  headers: Headers
  /** Path of the HTTP request, without the query string. */
  requestPath: string
  /** Per-request memo for extensions (e.g. the page data named by the `path` header). */
  memo: Map<string, unknown>
}
