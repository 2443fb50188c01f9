import { createHash } from 'node:crypto'
import type { Payload } from 'payload'
import { getOptions, getRegistry, isUuid } from '../../core/registry.js'
import type { StoredReadRequest } from '../../hydra/extension.js'
import { isCorsOrigin } from '../frontEnd/index.js'

/**
 * What an anonymous answer depends on besides the data: the instance-wide
 * settings (every resolved option, the compatibility profile included, and
 * the resources served), fingerprinted once per process. Instances with
 * other settings (a rolling deploy changing them) keep answers apart.
 */
const fingerprints = new WeakMap<Payload, string>()

function fingerprintOf(payload: Payload): string {
  let found = fingerprints.get(payload)
  if (!found) {
    const settings = JSON.stringify(
      {
        options: getOptions(payload.config),
        resources: getRegistry(payload.config)
          .all()
          .map((resource) => resource.collectionIri),
        serverURL: payload.config.serverURL ?? '',
      },
      // A function option (a route generator, a security expression) by its source.
      (_key, value: unknown) => (typeof value === 'function' ? String(value) : value),
    )
    found = createHash('sha256').update(settings).digest('hex')
    fingerprints.set(payload, found)
  }
  return found
}

/**
 * How a read ranks in the store (eviction takes the lowest rank first, the
 * least recently served first within a rank) and whether it is admitted at
 * its first miss (plain) or only once it has missed again (admission.ts):
 * - `PLAIN` (2): a path in its canonical spelling, no query string, no
 *   `path` header, an origin the site knows: a resource that exists, as the
 *   site names it;
 * - `VARIANT` (1): the same with a query string or a `path` header;
 * - `STRAY` (0): a spelling of the path the site never writes (an escaped
 *   letter, digit or `-._~`, a trailing slash, a dot segment), or, with no
 *   SERVER_URL, an origin that is neither loopback nor one of
 *   cors.allowedOrigins. Anyone can make up any number of these; they never
 *   push a plain or variant answer out.
 */
export const PLAIN = 2
export const VARIANT = 1
export const STRAY = 0

/** The key of a read, and its rank. */
export interface ReadShape {
  key: string
  rank: number
}

/** An escaped unreserved character (RFC 3986: letters, digits, `-._~`): the same path spelled otherwise. */
const ESCAPED_UNRESERVED = /%(?:3[0-9]|4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]|2D|2E|5F|7E)/i
/** A dot segment (`/./`, `/../`), or a trailing slash (a home route's `//` is the CWA module's own spelling). */
const ODD_SEGMENTS = /\/\.\.?(?:\/|$)|[^/]\/$/

/**
 * The path as the key names it. Spellings share a key only where the API
 * answers them with the same bytes (test/readModel/shapes in
 * equivalence.test.ts compares each with Payload's path): the hex digits of
 * an escape in either case (`%2f`, `%2F`: the same character decoded), and
 * an item's UUID in either case (the record is found by its id, and its
 * answer names the id as stored). Other spellings keep their own key.
 */
function canonicalPath(request: StoredReadRequest): string {
  const path = request.path.replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase())
  const slash = path.lastIndexOf('/')
  const last = path.slice(slash + 1)
  if (!isUuid(last) || last === last.toLowerCase()) return path
  const registry = getRegistry(request.payload.config)
  return registry.parseIri(`${registry.apiPrefix}${path}`)?.id
    ? `${path.slice(0, slash + 1)}${last.toLowerCase()}`
    : path
}

/**
 * The `path` request header as the key names it: a page data IRI in any
 * spelling the resolution accepts (absolute, without the prefix, a UUID in
 * capitals) names one record (contentModel/currentPageData.ts); a site path
 * is kept as sent (routes' paths are compared as they are).
 */
function canonicalPathHeader(request: StoredReadRequest): string {
  const header = request.headers.get('path')
  if (header === null) return ''
  const registry = getRegistry(request.payload.config)
  const parsed = registry.parseIri(header)
  return parsed?.id && parsed.resource.meta.kind === 'pageData' ? registry.itemIri(parsed.resource, parsed.id) : header
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Whether the origin of a read is one the site knows (no SERVER_URL: loopback, or one of cors.allowedOrigins). */
function knownOrigin(request: StoredReadRequest): boolean {
  const { payload, url } = request
  if (payload.config.serverURL) return true
  return LOOPBACK.has(url.hostname) || isCorsOrigin(url.origin, getOptions(payload.config).cors)
}

/**
 * The key of an anonymous read: the settings, the path under the API prefix
 * (canonicalPath) and the query as sent, the `path` request header (dynamic
 * positions resolve it), and the request's origin when the site has no
 * SERVER_URL (the Link header and absolute URLs are built from it); and its
 * rank.
 */
export function readShape(request: StoredReadRequest): ReadShape {
  const { payload } = request
  const pathHeader = canonicalPathHeader(request)
  const parts = [
    fingerprintOf(payload),
    `${canonicalPath(request)}${request.url.search}`,
    pathHeader,
    payload.config.serverURL ? '' : request.url.origin,
  ]
  const key = createHash('sha256').update(parts.join('\n')).digest('base64url')
  if (ESCAPED_UNRESERVED.test(request.path) || ODD_SEGMENTS.test(request.path) || !knownOrigin(request))
    return { key, rank: STRAY }
  return { key, rank: request.url.search !== '' || request.headers.has('path') ? VARIANT : PLAIN }
}
