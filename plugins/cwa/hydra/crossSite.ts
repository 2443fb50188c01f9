import type { Payload } from 'payload'

/**
 * Cross-site requests, decided in one place for the JSON-LD API, Payload's
 * REST API and the admin panel's session strategy.
 *
 * The allow-list is Payload's own: `csrf` (origins whose requests may carry
 * the session cookie) and the origins of `cors` when it is a list (or
 * `{ origins: [...] }`). `cors: '*'` allows no one here: a wildcard lets
 * browsers read answers, it must not let foreign pages write with the
 * visitor's cookie.
 */
export function allowedOrigins(payload: Payload): string[] {
  const config = payload.config as { csrf?: unknown; cors?: unknown }
  const csrf = Array.isArray(config.csrf) ? config.csrf : []
  const cors = config.cors
  const corsList = Array.isArray(cors)
    ? cors
    : cors && typeof cors === 'object' && Array.isArray((cors as { origins?: unknown }).origins)
      ? (cors as { origins: unknown[] }).origins
      : []
  return [...csrf, ...corsList]
    .filter((origin): origin is string => typeof origin === 'string' && origin !== '*')
    .map((origin) => origin.replace(/\/+$/, ''))
}

/**
 * The rule Payload applies to its own session cookie (and the admin panel
 * to the API session): with an Origin, it must be in `csrf` when a list is
 * configured; without one, a configured list requires a same-site fetch or
 * a direct navigation.
 */
export function crossSiteAllowed(headers: Headers, payload: Payload): boolean {
  const csrf = payload.config.csrf ?? []
  const origin = headers.get('Origin')
  if (origin) return csrf.length === 0 || csrf.includes(origin)
  if (csrf.length === 0) return true
  return ['same-origin', 'same-site', 'none'].includes(headers.get('Sec-Fetch-Site') ?? '')
}

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Why a state-changing request (POST, PATCH, PUT, DELETE) is refused as a
 * cross-site request forgery, or null when it is not one:
 *
 * - with an `Origin` header, the origin must be the request's own (its host
 *   and port, as the Host header names them: a TLS-terminating proxy may
 *   change the scheme), one of `allowedOrigins` or one an extension's
 *   `allowsOrigin` hook names (the site's front ends); `Origin: null` (sandboxed
 *   frames, some redirects) is foreign;
 * - without `Origin`, `Sec-Fetch-Site: cross-site` is refused;
 * - with neither (curl, server-to-server calls), the request is allowed;
 * - a request with an `Authorization` header is allowed whatever its
 *   origin: a browser never adds one to a cross-site request on its own
 *   (bearer tokens are not ambient credentials) and a page that sets one
 *   in script must pass a CORS preflight first.
 */
export function crossSiteWriteRefusal(
  method: string,
  headers: Headers,
  payload: Payload,
  allows: (origin: string) => boolean = () => false,
): string | null {
  if (SAFE.has(method.toUpperCase())) return null
  if (headers.get('authorization')) return null
  const origin = headers.get('origin')
  if (origin !== null) {
    const trimmed = origin.trim().replace(/\/+$/, '')
    if (allowedOrigins(payload).includes(trimmed) || (trimmed !== 'null' && allows(trimmed))) return null
    let host: string | null = null
    try {
      host = trimmed === 'null' ? null : new URL(trimmed).host.toLowerCase()
    } catch {
      host = null
    }
    const own = (headers.get('host') ?? '').trim().toLowerCase()
    if (host !== null && own !== '' && (host === own || host === own.replace(/:(80|443)$/, ''))) return null
    return `Cross-site request refused: the origin ${JSON.stringify(origin)} may not send ${method.toUpperCase()} requests here.`
  }
  if ((headers.get('sec-fetch-site') ?? '').toLowerCase() === 'cross-site') {
    return `Cross-site request refused: a page of another site may not send ${method.toUpperCase()} requests here.`
  }
  return null
}
