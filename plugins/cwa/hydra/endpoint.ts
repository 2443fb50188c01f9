import type { Readable } from 'node:stream'
import type { SecurityExpression } from '../core/options.js'
import type { HydraContext } from './context.js'
import type { OpenApiKit, Schema } from './docs/openapi/kit.js'
import type { InputNode, InputOf } from './input.js'
import type { CollectionAnswer, ItemAnswer } from './embedded.js'
import type { PathParameterDoc } from './pathParameters.js'

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

/** The methods in the order an `Allow` header lists them. */
export const METHOD_ORDER: HttpMethod[] = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE']

/** What a handler gets of the HTTP request besides the context. */
export interface ApiRequest<Body = unknown> {
  method: string
  /** Path parameters of the endpoint's template: `{name}` decoded, `{name+}` as sent. */
  params: Record<string, string>
  /**
   * The parsed JSON body (POST, PATCH), undefined when none was sent (or the endpoint reads the stream itself).
   * With an `input`: the body it checked, typed from it, read-only (reading an undeclared field throws).
   */
  body: Body
  /** The unread body, for endpoints declared with `body: 'stream'` (multipart uploads); null otherwise. */
  stream: AsyncIterable<Uint8Array> | null
  url: URL
  /** Headers of the response being prepared, kept on an error response too (cookies a refused request must clear). */
  responseHeaders: Headers
}

/**
 * Data a handler returns for the serializer (hydra/serializer.ts), which
 * makes a JSON-LD node of it: `@context`, `@id` and `@type` first, then the
 * data's properties in their order (as API Platform's providers return
 * objects and its normalizers add the JSON-LD keys).
 */
export interface JsonLdOutput {
  /** The node's `@type`: a class of the API's vocabulary (`PositionOrder`, `OrphanedResources`) or of Hydra's. */
  type: string
  /** The node's `@id`, when it has one (an IRI the registry built). */
  id?: string
  /**
   * Its `@context`. By default the entrypoint's (`{prefix}/contexts/Entrypoint`), which resolves and maps the
   * API's vocabulary; `{ name }` the context served at `{prefix}/contexts/{name}`; `'hydra'` Hydra's own
   * (a Hydra `Status`); `{ terms }` an inline context.
   */
  context?: 'hydra' | { name: string } | { terms: Record<string, unknown> }
  /**
   * The node's other properties. A record inside them is an `embedItem(resource, doc)` reference
   * (hydra/embedded.ts): the pipeline normalizes it where it stands; no feature calls the normalizer.
   */
  data: object
}

/**
 * How the answers of an endpoint may be stored (as API Platform's
 * `cacheHeaders` on an operation); the pipeline writes the Cache-Control
 * header, no handler does:
 * - `'no-store'`: every answer, errors and refusals included, is `private, no-store`
 *   (private data: the admin's views, emailed tokens, sessions);
 * - `{ maxAge, sharedMaxAge? }`: a 200 answering an anonymous GET or HEAD is
 *   `public, max-age=…[, s-maxage=…]` (signed-in callers keep `private, no-store`).
 */
export type CachePolicy = 'no-store' | { maxAge: number; sharedMaxAge?: number }

/** is_granted: whether the caller holds a role (through `roleHierarchy`) or passes a security expression. */
export type IsGranted = (expression: SecurityExpression) => boolean

/**
 * One rule of an endpoint's `security`: a role the caller must hold (after
 * the role hierarchy), or a predicate on the request, which may ask
 * `isGranted` (an option's security expression, such as the publish
 * permission). `message` is the 403's detail (API Platform's
 * `securityMessage`); an anonymous caller always gets the 401.
 */
export type SecurityRule = (
  { role: string } | { granted: (ctx: HydraContext, isGranted: IsGranted) => boolean | Promise<boolean> }
) & { message?: string }

/**
 * Who may call an endpoint (as API Platform's `security` on an operation).
 * The pipeline enforces it before the body is read and the handler runs:
 * - absent: reads reach the handler, which applies its resource's own access;
 *   a write needs a signed-in caller (401);
 * - `'public'`: anyone, writes included (login, registration, form submits);
 * - `'signed-in'`: a signed-in caller, whatever the method (401);
 * - a rule, or a list of rules that must all pass in order: 401 for an
 *   anonymous caller, 403 for a signed-in one (with the rule's message);
 *   as without rules, a write needs a signed-in caller first.
 */
export type EndpointSecurity = 'public' | 'signed-in' | SecurityRule | readonly SecurityRule[]

/** What every answer of a handler carries, whatever its body. */
interface ResultFields {
  status: number
  /**
   * This answer's cache policy, when it depends on what the handler read (a built-in form is private, a stored
   * one is not); otherwise the endpoint's declared `cache` applies.
   */
  cache?: CachePolicy
  /** Response headers; a Headers object when it holds several Set-Cookie lines. */
  headers?: Record<string, string> | Headers
  /** The version of the record a 200 answers with (hydra/version.ts): it leads the ETag, for a later write's If-Match. */
  version?: string | null
}

/** The body kinds a result holds: exactly one of them, or none (no content). */
interface BodyKinds {
  /** One record of a resource: the pipeline normalizes it (prepareItems, normalizeItem) into the JSON-LD item. */
  item: ItemAnswer
  /** A page of a resource's collection: the pipeline normalizes it into a Hydra collection. */
  collection: CollectionAnswer
  /** A node of the API's structure the serializer makes (`@context`, `@id`, `@type` added): what feature handlers return. */
  output: JsonLdOutput
  /** A non-JSON body (HTML, XML, a file) with its content type; a stream is sent as it is read (no ETag). */
  raw: { contentType: string; data: string | Uint8Array | Readable }
  /**
   * A JSON body built elsewhere, sent as it is (the format layer's own documents: the entrypoint, contexts, the
   * Hydra documentation; a resource manifest's `resource_iris`; a form listener's answer). Records embedded in
   * it (hydra/embedded.ts) are normalized where they stand.
   */
  body: unknown
}

type OneBody<K extends keyof BodyKinds> = { [P in K]: BodyKinds[P] } & { [P in Exclude<keyof BodyKinds, K>]?: never }

/**
 * What a handler hands back: data, never a formatted body. The pipeline
 * (hydra/pipeline/format.ts) normalizes an item or a collection page,
 * serializes a node, and sends raw bytes as they are; no body is no content.
 */
export type EndpointResult = ResultFields &
  (
    | OneBody<'item'>
    | OneBody<'collection'>
    | OneBody<'output'>
    | OneBody<'raw'>
    | OneBody<'body'>
    | { [P in keyof BodyKinds]?: never }
  )

/** A result's status, headers, cache and version without its body: for an answer made of another's with a body of its own. */
export function fieldsOf(result: EndpointResult): ResultFields {
  const { status, cache, headers, version } = result
  return {
    status,
    ...(cache === undefined ? {} : { cache }),
    ...(headers === undefined ? {} : { headers }),
    ...(version === undefined ? {} : { version }),
  }
}

/** How an endpoint appears in the OpenAPI document. */
export interface EndpointDoc {
  /** The operation object (operationId, tags, summary, parameters, responses...). */
  operation: Schema
  /** Parameters shared by every operation of the path (e.g. `{id}`). */
  pathParameters?: Schema[]
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
export interface Endpoint<Body = unknown> {
  method: HttpMethod
  path: string
  /** Constraints on parameters: a template matches only when each holds. */
  params?: Record<string, (value: string) => boolean>
  /**
   * What the OpenAPI document says of its path parameters, by name (a description, a schema other than a
   * string): declared once here, generated into the parameter objects its `docs` receives (hydra/pathParameters.ts).
   */
  paramDocs?: Record<string, PathParameterDoc>
  /** Who may call it (see EndpointSecurity): enforced by the pipeline, never by the handler. */
  security?: EndpointSecurity
  /** How its answers may be stored (see CachePolicy): written by the pipeline, never by the handler. */
  cache?: CachePolicy
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
  /**
   * The body it takes (hydra/input.ts), when it has its own shape: checked by the pipeline before the handler
   * runs (the refusal the schema declares), handed over read-only and typed, documented as its request body.
   * Declare it through `withInput`, which types the handler's body from it. Generic resource writes have none
   * (their fields are the type's, the denormalizer's).
   */
  input?: InputNode<Body>
  handler(ctx: HydraContext, request: ApiRequest<Body>): Promise<EndpointResult>
  /**
   * Its OpenAPI description, or why it has none (the documentation's own files). `params` holds its path
   * parameters' objects, generated from the template and `paramDocs`, for the docs to place (path or operation).
   */
  docs: ((kit: OpenApiKit, params: Record<string, Schema>) => EndpointDoc) | { undocumented: string }
}

/**
 * An endpoint with its own body: the handler's `request.body` is the type
 * its `input` schema accepts (inferred: no body interface written beside it).
 */
export const withInput = <N extends InputNode<unknown>>(endpoint: Endpoint<InputOf<N>> & { input: N }): Endpoint =>
  endpoint
