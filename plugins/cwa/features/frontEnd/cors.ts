import type { CrossOriginRequest } from '../../hydra/extension.js'
import type { ResolvedCorsOptions } from './options.js'

/**
 * Request headers a front end sends: `path` (the page being rendered), `preload`, `content-type`, and
 * `If-Match` (the version read: a stale write is a 412 instead of a lost update).
 */
const ALLOWED_HEADERS = 'Content-Type, Path, Preload, Authorization, Accept, If-None-Match, If-Match'
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE'
/** Response headers a front end may read: `Link` (the API documentation), `ETag` (the version to send back as If-Match). */
const EXPOSED_HEADERS = 'Link, ETag'

const compiled = new WeakMap<ResolvedCorsOptions, RegExp[]>()

/** Whether `origin` is one of cors.allowedOrigins (anchored, case-insensitive). `null` (sandboxed pages) never is. */
export function isCorsOrigin(origin: string, cors: ResolvedCorsOptions): boolean {
  if (origin === 'null') return false
  let patterns = compiled.get(cors)
  if (!patterns) {
    patterns = cors.allowedOrigins.map((pattern) => new RegExp(`^(?:${pattern})$`, 'i'))
    compiled.set(cors, patterns)
  }
  const trimmed = origin.trim().replace(/\/+$/, '')
  return patterns.some((pattern) => pattern.test(trimmed))
}

/**
 * CORS headers of one answer: for an allowed origin, the origin itself
 * (never `*`: credentials are allowed), credentials, and `Vary: Origin`;
 * for a preflight, the methods, request headers and max-age too. A
 * foreign origin gets no CORS header at all, so its browser keeps the
 * answer from the page.
 */
export function addCorsHeaders(request: CrossOriginRequest, headers: Headers, cors: ResolvedCorsOptions): void {
  if (cors.allowedOrigins.length === 0) return
  const vary = headers.get('Vary')
  if (!vary || !/(^|,)\s*origin\s*(,|$)/i.test(vary)) headers.set('Vary', vary ? `${vary}, Origin` : 'Origin')
  const origin = request.headers.get('origin')
  if (!origin || !isCorsOrigin(origin, cors)) return
  headers.set('Access-Control-Allow-Origin', origin.trim())
  headers.set('Access-Control-Allow-Credentials', 'true')
  headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS)
  if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
    headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS)
    headers.set('Access-Control-Allow-Headers', ALLOWED_HEADERS)
    headers.set('Access-Control-Max-Age', String(cors.maxAge))
  }
}
