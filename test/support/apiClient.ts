/** A fetch-based JSON-LD client of a server the tests started (the reference site's, a minimal app's). */

export interface TestResponse<T = any> {
  status: number
  headers: Headers
  body: T
  text: string
}

export interface RequestOptions {
  token?: string
  headers?: Record<string, string>
  /** Raw body (sent as is); otherwise `json` is serialized. */
  raw?: string
  contentType?: string
}

/**
 * Requests to `base` as a front end sends them: `accept: application/ld+json`, a bearer token when given, a JSON
 * body typed `application/merge-patch+json` for PATCH and `application/ld+json` otherwise; the answer parsed
 * when it is JSON.
 */
export function apiClient(base: string) {
  return async (method: string, path: string, json?: unknown, opts: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { accept: 'application/ld+json', ...(opts.headers ?? {}) }
    if (opts.token) headers.authorization = `Bearer ${opts.token}`
    const body = opts.raw !== undefined ? opts.raw : json !== undefined ? JSON.stringify(json) : undefined
    if (body !== undefined)
      headers['content-type'] =
        opts.contentType ?? (method === 'PATCH' ? 'application/merge-patch+json' : 'application/ld+json')
    const response = await fetch(`${base}${path}`, { method, headers, body })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      /* not JSON */
    }
    return { status: response.status, headers: response.headers, body: parsed, text }
  }
}
