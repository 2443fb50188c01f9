import type { Readable } from 'node:stream'

/** The media type of every JSON-LD answer, errors included. */
export const JSONLD = 'application/ld+json; charset=utf-8'

/** A request as the adapters (Fetch, Express) hand it over. */
export interface IncomingApiRequest {
  method: string
  /** Absolute URL as the client sent it. */
  url: URL
  /**
   * The path exactly as sent, when the adapter has it: a URL object resolves
   * dot segments (`/users/%2e%2e` becomes `/`), and the API must see the
   * segment the client wrote.
   */
  rawPath?: string
  headers: Headers
  /** The body as a stream of bytes, read only by endpoints that take one. */
  body: AsyncIterable<Uint8Array> | null
}

/** What the adapters send back. */
export interface ApiResponse {
  status: number
  headers: Headers
  /** A stream (a file download) is sent as it is read. */
  body: string | Uint8Array | Readable | null
}

/**
 * An answer of the pipeline before it reaches the adapter: with the JSON-LD
 * body its handler returned (service IRIs, before any profile rewrote them)
 * and the shared state it depended on, for the hooks that keep or tag it.
 */
export type PipelineResponse = ApiResponse & {
  json?: unknown
  /** The resource IRIs its body names, in the order met, as the pipeline recorded them while formatting it. */
  tags?: string[]
  dependencies?: string[]
}

/** What the client sent, kept for the error answer (a database error is the client's only when it names a value sent). */
export interface Sent {
  url: URL
  body?: unknown
}
