import type { Payload, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../core/options.js'
import type { HydraContext } from './context.js'
import type { OpenApiDocument, OpenApiKit, Schema } from './docs/openapi/kit.js'
import type { PropertyDescription } from './docs/openapi/propertyDescription.js'
import type { Endpoint } from './endpoint.js'
import type { Resource, ResourceRegistry } from '../core/registry.js'
import type { Doc, ItemStore } from './itemStore.js'
import type { OutputProfile, ProfileScope } from './profile.js'

export type JsonLdObject = Record<string, unknown>

declare module './context.js' {
  interface HydraContext {
    /**
     * The extensions, in the order their hooks run: the one list every
     * stage of the request calls (the pipeline's, pipeline/runtime.ts),
     * resolved once per Payload instance, never looked up on the config again.
     */
    extensions: readonly HydraExtension[]
  }
}

/** The request as an `authenticate` hook sees it (before any endpoint runs). */
export interface AuthenticationRequest {
  payload: Payload
  method: string
  /** Path under the API prefix. */
  path: string
  headers: Headers
  /** Headers of the response being prepared: a hook may add cookies. */
  responseHeaders: Headers
}

/** The request behind an answer, as `crossOrigin` hooks see it. */
export interface CrossOriginRequest {
  payload: Payload
  method: string
  /** Path under the API prefix. */
  path: string
  headers: Headers
}

/** A response about to be sent, as `decorateResponse` hooks see it. */
export interface ResponseInfo {
  payload: Payload
  method: string
  /** Path under the API prefix. */
  path: string
  user: PayloadRequest['user'] | null
  status: number
  headers: Headers
  /** The JSON-LD body the handler returned (undefined for raw and empty bodies). */
  body?: unknown
  /** The resource IRIs the body names, in the order met: recorded by the pipeline as it formatted the body. */
  tags?: readonly string[]
  /** Tags of shared state the answer depended on besides the records its body names (core/utils/readDependencies). */
  dependencies?: readonly string[]
}

/** A read before the pipeline runs it, as `answerStored` hooks see it. */
export interface StoredReadRequest {
  payload: Payload
  /** GET or HEAD. */
  method: string
  /** Path under the API prefix. */
  path: string
  url: URL
  headers: Headers
}

/** An answer as the pipeline computed it (before cross-origin headers), for a hook that keeps it. */
export interface ComputedAnswer {
  status: number
  headers: Headers
  /** The body as it is sent (null for a HEAD, a stream or no body). */
  body: string | null
  /** The JSON-LD body with the service's own IRIs (before any profile wrote them its way). */
  json?: unknown
  /** The resource IRIs the body names, in the order met (recorded by the pipeline as it formatted the body). */
  tags: readonly string[]
  /** Tags of shared state the answer depended on besides the records its body names. */
  dependencies: readonly string[]
}

/** What an `answerStored` hook found: a stored answer to send as it is, or a fill to run the pipeline in. */
export type StoredRead =
  | { answer: { status: number; headers: Headers; body: string } }
  | {
      fill: {
        /** Runs the pipeline's work (its reads) in the conditions the fill needs. */
        run<T>(work: () => Promise<T>): Promise<T>
        /** Keeps what the pipeline answered, when it can be kept. */
        keep(answer: ComputedAnswer): Promise<void>
      }
    }

/**
 * The writes that go with a create, planned by `planCreate`: run once the
 * record exists, in the create's transaction (a refusal rolls the record
 * back with them).
 */
export type CreateFollowUp = (created: Doc) => Promise<void>

/**
 * The request hooks of an extension: who the caller is, what may run, where
 * a resource's records live, what an answer's headers say. Each is called
 * from one place, extensions/requestHooks.ts, which every stage uses.
 */
export interface RequestHooks {
  /**
   * Resolves the caller of a request: a user, null (anonymous) or undefined
   * (not this hook's business). The first hook with an answer decides; it
   * may throw an HTTP error (a forged or expired token).
   */
  authenticate?(request: AuthenticationRequest): Promise<PayloadRequest['user'] | null | undefined>
  /**
   * Answers a GET or HEAD before the pipeline authenticates or runs
   * anything (a stored answer), or hands back a fill that sees the
   * pipeline's answer; null when the request is not this hook's business
   * (a caller with credentials, a path it does not keep). The first hook with
   * an answer decides.
   */
  answerStored?(request: StoredReadRequest): Promise<StoredRead | null>
  /**
   * Whether anyone, anonymous callers included, may ask the generic
   * collection POST of this resource to create a record (registration): the
   * endpoint is then `'public'`, and a refusal by the resource's own access
   * is a 403 for every caller (the operation is open to all, this record is
   * refused), not the 401 an anonymous write otherwise gets. Any hook
   * answering true opens it.
   */
  publicCreate?(resource: Resource): boolean
  /**
   * Reads what the body of a generic create asks for besides the record
   * (where a new component goes): checks it before anything is written
   * (throws a ViolationError to refuse the body) and returns the writes that
   * go with the record, or null/undefined when the body asks this hook
   * nothing. The create and every follow-up share one transaction.
   */
  planCreate?(resource: Resource, body: unknown, ctx: HydraContext): Promise<CreateFollowUp | null | undefined>
  /** Runs before an item GET serves a record: may refuse it (throw 401/403/404) or let it through. */
  beforeItemRead?(resource: Resource, id: string, ctx: HydraContext): Promise<void>
  /**
   * Whether pages of this origin (`https://app.example`) may send writes
   * (POST, PATCH, PUT, DELETE) to both APIs: the site's own front ends. Any
   * hook saying yes allows it; otherwise a cross-site write is a 403.
   */
  allowsOrigin?(origin: string, payload: Payload): boolean
  /**
   * Adds cross-origin headers (CORS) to any answer of the API, errors and
   * preflights (`OPTIONS`) included: `request.headers` are the request's.
   */
  crossOrigin?(request: CrossOriginRequest, responseHeaders: Headers): void
  /**
   * Rewrites a request body before its endpoint reads it (a compatibility
   * profile accepting IRIs in another shape). One place for every endpoint.
   */
  rewriteInput?(body: unknown, ctx: HydraContext): Promise<unknown>
  /**
   * Whether the resource's collection filters apply to its item requests
   * (contract rule: a non-matching `search` makes an item a 404). Any hook
   * answering false turns that off.
   */
  itemFilters?(ctx: HydraContext): boolean
  /** Adjusts the headers of an API response after its handler ran (cache lifetimes, cache tags...). */
  decorateResponse?(response: ResponseInfo): void | Promise<void>
  /** Claims the reads and writes of a resource (return undefined to leave them to others). */
  store?(resource: Resource, ctx: HydraContext, fallback: ItemStore): ItemStore | undefined
  /**
   * The record a site path names (the `path` request header of dynamic
   * positions): the first hook with an answer decides.
   */
  resolvePath?(path: string, ctx: HydraContext): Promise<{ slug: string; id: string } | null | undefined>
}

/**
 * The format hooks of an extension: how a record becomes JSON-LD, how a
 * profile writes the answers, how the API describes itself. Each is called
 * from one place, extensions/formatHooks.ts, which the normalizer, the
 * pipeline's writer and the documentation builders use.
 */
export interface FormatHooks {
  /**
   * Adjusts a normalized item before it is sent (e.g. `_metadata` entries,
   * dynamic component resolution). Runs for items and collection members.
   */
  normalizeItem?(
    item: JsonLdObject,
    doc: Record<string, unknown>,
    resource: Resource,
    ctx: HydraContext,
  ): void | Promise<void>
  /**
   * Runs once before a batch of documents is normalized (a collection page or
   * one item), so that per-item data can be loaded in one query, not N.
   */
  prepareItems?(docs: Doc[], resource: Resource, ctx: HydraContext): void | Promise<void>
  /**
   * How a compatibility profile writes the answers (errors and hub updates
   * included): the IRIs and node shapes it serves, applied while the body is
   * written (profile.ts); null when it does not apply. One place for every
   * endpoint: no handler formats its own.
   */
  profile?(scope: ProfileScope): OutputProfile | null
  /**
   * Amends the terms of a resource's JSON-LD context (`/contexts/{type}`):
   * a property the extension outputs that no field of the resource declares.
   */
  describeContext?(resource: Resource, terms: JsonLdObject): void
  /** Amends the properties a resource documents (OpenAPI and Hydra documentation alike). */
  describeProperties?(resource: Resource, properties: PropertyDescription[], registry: ResourceRegistry): void
  /** The security schemes of the OpenAPI document (how callers authenticate). */
  securitySchemes?(options: ResolvedCwaOptions): Record<string, Schema>
  /** Amends any part of the OpenAPI document once it is built (schemas, operations, tags). */
  openApi?(document: OpenApiDocument, kit: OpenApiKit): void
}

/**
 * A hook into the JSON-LD pipeline. Features (publishable, routes, users,
 * forms, session...) add behaviour here instead of inside the core: the core
 * calls every hook in the same way and names no feature. Its hooks are of
 * two kinds, request hooks and format hooks, each called from one
 * dispatcher (extensions/requestHooks.ts, extensions/formatHooks.ts).
 */
export interface HydraExtension extends RequestHooks, FormatHooks {
  name: string
  /** The endpoints it adds to the API, each declared once (routing and documentation); `options` when the table is built for a Payload instance. */
  endpoints?(registry: ResourceRegistry, options?: ResolvedCwaOptions): Endpoint[]
}
