import { createHash } from 'node:crypto'
import type { ApiResponse, IncomingApiRequest } from './messages.js'

/**
 * A weak validator of a body, as Express computes it (length and SHA-1), so caches can revalidate a read;
 * led by the record's version when the answer is one record, so a writer can send it back as If-Match.
 */
export function etagOf(body: string | Uint8Array, version?: string | null): string {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length
  const hash = `${length.toString(16)}-${createHash('sha1').update(body).digest('base64').substring(0, 27)}`
  return `W/"${version ? `${version}.` : ''}${hash}"`
}

/** A read the client already holds (If-None-Match names its ETag): 304 without a body. */
export function notModified(incoming: IncomingApiRequest, response: ApiResponse): ApiResponse | null {
  if ((incoming.method !== 'GET' && incoming.method !== 'HEAD') || response.status !== 200) return null
  const etag = response.headers.get('ETag')
  const wanted = incoming.headers.get('if-none-match')
  if (!etag || !wanted || /(?:^|,)\s*no-cache\s*(?:,|$)/.test(incoming.headers.get('cache-control') ?? '')) return null
  const strip = (tag: string) => tag.trim().replace(/^W\//, '')
  if (wanted.trim() !== '*' && !wanted.split(',').some((tag) => strip(tag) === strip(etag))) return null
  for (const name of ['Content-Type', 'Content-Length', 'Transfer-Encoding']) response.headers.delete(name)
  return { status: 304, headers: response.headers, body: null }
}
