import type { Readable } from 'node:stream'
import type { HydraContext } from './context.js'
import type { OpenApiKit, Schema } from './docs/openapi/kit.js'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/** The methods in the order an `Allow` header lists them. */
export const METHOD_ORDER: HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']

/** What a handler gets of the HTTP request besides the context. */
export interface ApiRequest {
  method: string
  /** Path parameters of the endpoint's template: `{name}` decoded, `{name+}` as sent. */
  params: Record<string, string>
  /** The parsed JSON body (POST, PATCH), undefined when none was sent (or the endpoint reads the stream itself). */
  body: unknown
  /** The unread body, for endpoints declared with `body: 'stream'` (multipart uploads); null otherwise. */
  stream: AsyncIterable<Uint8Array> | null
  url: URL
  /** Headers of the response being prepared, kept on an error response too (cookies a refused request must clear). */
  responseHeaders: Headers
}

/** What a handler hands back: a JSON-LD body, or a body of another type (`raw`). */
export interface EndpointResult {
  status: number
  body?: unknown
  /** Response headers; a Headers object when it holds several Set-Cookie lines. */
  headers?: Record<string, string> | Headers
  /** A non-JSON body (HTML, XML, a file) with its content type; a stream is sent as it is read (no ETag). */
  raw?: { contentType: string; data: string | Uint8Array | Readable }
  /** The version of the record a 200 answers with (hydra/version.ts): it leads the ETag, for a later write's If-Match. */
  version?: string | null
}

/** How an endpoint appears in the OpenAPI document. */
export interface EndpointDoc {
  /** The operation object (operationId, tags, summary, parameters, responses...). */
  operation: Schema
  /** Parameters shared by every operation of the path (e.g. `{id}`). */
  pathParameters?: Schema[]
  /** The documented path when it differs from the template (e.g. `{path+}` documented as `{id}`). */
  path?: string
}

/**
 * One endpoint of the JSON-LD API, declared once: the router matches it,
 * the OpenAPI builder documents it, a test checks that both see the same set.
 *
 * Path templates are written under the API prefix: literal segments,
 * `{name}` (one segment, percent-decoded) and `{name+}` (the rest of the
 * path, one or more characters, as sent). When several templates match a
 * request, the one with more literal segments wins, then the one whose
 * matching parameters carry more constraints, then the one with fewer
 * `{name+}` parameters, last the template that sorts first; two templates
 * of the same shape for the same method are refused when the table is
 * built. Registration order never decides.
 */
export interface Endpoint {
  method: HttpMethod
  path: string
  /** Constraints on parameters: a template matches only when each holds. */
  params?: Record<string, (value: string) => boolean>
  /**
   * Who may call it: `public` writes are open to anonymous callers (login,
   * registration, form submits); other writes answer 401 to anonymous
   * callers before anything else happens. Reads are always open to the
   * handler, which applies its own access.
   */
  access?: 'public' | 'signed-in'
  /**
   * How the body is read: `json` (the default: POST/PATCH JSON, checked and
   * parsed before the handler runs) or `stream` (left unread and handed to
   * the handler as `request.stream`, which checks type and size itself).
   */
  body?: 'json' | 'stream'
  /**
   * The media types its body may have, when they differ from the defaults
   * (POST: JSON-LD or JSON; PATCH: merge-patch). Anything else is a 415.
   */
  bodyTypes?: string[]
  /** Outside the API prefix (e.g. `/sitemap.xml`); such endpoints are never documented in the API. */
  root?: boolean
  /**
   * Takes over the generic endpoint with this template and method (a feature
   * that answers a resource's item path in its own way, e.g. a route by id
   * or by path). Said here, so that no registration order decides.
   */
  supersedes?: string
  handler(ctx: HydraContext, request: ApiRequest): Promise<EndpointResult>
  /** Its OpenAPI description, or why it has none (the documentation's own files). */
  docs: ((kit: OpenApiKit) => EndpointDoc) | { undocumented: string }
}
