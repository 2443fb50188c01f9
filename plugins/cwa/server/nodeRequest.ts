import type { Request } from 'express'

/** Fetch-style Headers from an Express request (lower-case names). */
export function fetchHeaders(req: Request): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  return headers
}

/**
 * The absolute URL of a request. A Host header or a path that does not make
 * a valid URL (a client can send anything) falls back to localhost, so that
 * handling never fails on bad input.
 */
export function requestUrl(req: Request): URL {
  const path = req.originalUrl.startsWith('/') ? req.originalUrl : `/${req.originalUrl}`
  try {
    return new URL(`${req.protocol}://${req.get('host') ?? 'localhost'}${path}`)
  } catch {
    try {
      return new URL(`http://localhost${path}`)
    } catch {
      return new URL('http://localhost/')
    }
  }
}

