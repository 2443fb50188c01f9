import { type CwaResult, failure, httpError, success } from './result.js'

export interface CwaClientOptions {
  /** The API's URL with its prefix: `https://example.com/_api`. */
  apiUrl: string
  /**
   * The `fetch` to call (default: the global one). An app that serves the API in the same process passes one that
   * calls its handler, so no request goes through a socket: `fetch: (input, init) => handler(new Request(input, init))`.
   */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>
  /**
   * Headers sent with every request, or a function returning them for each (a signed-in editor's `cookie` copied
   * from the incoming request during a server render, a preview token's `authorization`).
   */
  headers?: HeadersInit | (() => HeadersInit | Promise<HeadersInit>)
  /** A browser's `credentials` (`include`: the session cookies go to an API on another origin). */
  credentials?: RequestCredentials
  /** At most this many requests at once (default 16). */
  concurrency?: number
  /**
   * The response header listing the resources an answer holds, the API's cache tags (its `httpCache.tagHeader`,
   * default `xkey`): a resolved page gathers them in `tags`.
   */
  tagHeader?: string
}

export const DEFAULT_CONCURRENCY = 16

/** An answer read as JSON, with what the client needs of its headers. */
export interface Answer<T> {
  status: number
  body: T
  headers: Headers
}

/**
 * Requests to one API: URLs from IRIs, the JSON-LD `accept`, the options' headers, a bound on requests in
 * flight, and every answer as a result value (nothing thrown).
 */
export class Transport {
  private readonly api: URL
  private readonly fetch: NonNullable<CwaClientOptions['fetch']>
  private inFlight = 0
  private readonly queue: Array<() => void> = []

  constructor(private readonly options: CwaClientOptions) {
    this.api = new URL(options.apiUrl.replace(/\/+$/, ''))
    const fetch = options.fetch ?? globalThis.fetch
    if (!fetch) throw new TypeError('payload-cwa/client: no fetch here; pass one in the options (fetch)')
    this.fetch = fetch
  }

  /** The header of an answer's cache tags. */
  get tagHeader(): string {
    return this.options.tagHeader ?? 'xkey'
  }

  /** The API prefix's path (`/_api`), '' for an API at the root. */
  get prefix(): string {
    return this.api.pathname === '/' ? '' : this.api.pathname
  }

  /** A URL of the API: an endpoint path under the prefix (`/_/routes/…`), or an IRI (with or without the prefix). */
  url(pathOrIri: string): string {
    if (/^https?:\/\//i.test(pathOrIri)) return pathOrIri
    const prefixed =
      this.prefix && (pathOrIri === this.prefix || pathOrIri.startsWith(`${this.prefix}/`))
        ? pathOrIri
        : `${this.prefix}${pathOrIri}`
    return `${this.api.origin}${prefixed}`
  }

  /** Sends one request; a JSON body is sent as `content-type` says (default `application/ld+json`). */
  async request<T>(
    method: string,
    pathOrIri: string,
    init: { body?: unknown; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<CwaResult<Answer<T>>> {
    await this.slot()
    try {
      const headers = new Headers(await this.baseHeaders())
      headers.set('accept', 'application/ld+json')
      for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value)
      if (init.body !== undefined) headers.set('content-type', init.contentType ?? 'application/ld+json')
      let response: Response
      try {
        response = await this.fetch(this.url(pathOrIri), {
          method,
          headers,
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
          ...(this.options.credentials ? { credentials: this.options.credentials } : {}),
        })
      } catch (error) {
        return failure({ kind: 'network', message: error instanceof Error ? error.message : String(error) })
      }
      const text = await response.text()
      let body: unknown
      try {
        body = text ? JSON.parse(text) : undefined
      } catch {
        return failure({ kind: 'invalid', status: response.status, message: 'The answer is not JSON' })
      }
      if (!response.ok) return failure(httpError(response.status, body))
      return success({ status: response.status, body: body as T, headers: response.headers })
    } finally {
      this.release()
    }
  }

  private async baseHeaders(): Promise<HeadersInit> {
    const { headers } = this.options
    return typeof headers === 'function' ? await headers() : (headers ?? {})
  }

  private slot(): Promise<void> {
    const limit = this.options.concurrency ?? DEFAULT_CONCURRENCY
    if (this.inFlight < limit) {
      this.inFlight++
      return Promise.resolve()
    }
    return new Promise((resolve) => this.queue.push(resolve))
  }

  private release(): void {
    const next = this.queue.shift()
    if (next) next()
    else this.inFlight--
  }
}
