import type { Request } from 'express'
import { CLIENT_ADDRESS_HEADER, nodeClientAddress } from '../core/utils/clientAddress.js'

/**
 * Fetch-style Headers from an Express request (lower-case names), with the
 * client address Express determined (`req.ip`: X-Forwarded-For believed only
 * from the proxies of `trust proxy`) in CLIENT_ADDRESS_HEADER, replacing
 * whatever the client sent under that name.
 */
export function fetchHeaders(req: Request): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    headers.set(name, Array.isArray(value) ? value.join(', ') : value)
  }
  headers.delete(CLIENT_ADDRESS_HEADER)
  const address = nodeClientAddress(req)
  if (address) headers.set(CLIENT_ADDRESS_HEADER, address)
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
