import { badRequest, HttpError } from '../errors'

const POST_TYPES = ['application/ld+json', 'application/json']
const PATCH_TYPES = ['application/merge-patch+json']

/**
 * Largest request body: the reference server's post_max_size (21M), so that
 * a file sent as a base64 data URI in a JSON body fits like a form upload.
 */
export const MAX_BODY_BYTES = 21 * 1024 * 1024

/**
 * Reads the JSON body of a write, checking the media type (POST: ld+json or
 * json; PATCH: merge-patch+json; anything else 415), size (413) and syntax
 * (400). An empty POST without a content type has no body (logout, publish
 * requests without data). Only POST and PATCH carry a body: anything else
 * is left unread, so that a PUT answers 405 whatever its body holds.
 */
export async function readJsonBody(method: string, contentType: string | null, body: AsyncIterable<Uint8Array> | null, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (method !== 'POST' && method !== 'PATCH') return undefined
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  const raw = await readRaw(body, limit)
  if (raw.length === 0 && method === 'POST' && type === '') return undefined
  const accepted = method === 'PATCH' ? PATCH_TYPES : POST_TYPES
  if (!accepted.includes(type)) {
    throw new HttpError(415, `The content-type "${type || '(none)'}" is not supported. Supported MIME types are "${accepted.join('", "')}".`)
  }
  if (raw.length === 0) return undefined
  try {
    return JSON.parse(raw.toString('utf8').replace(/^\uFEFF/, ''))
  } catch {
    throw badRequest('Syntax error: the request body is not valid JSON.')
  }
}

/** The whole body, up to `limit` bytes; past it the rest is drained and dropped, so a 413 can still be answered. */
async function readRaw(body: AsyncIterable<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of body) {
      size += chunk.length
      if (size <= limit) chunks.push(chunk)
    }
  } catch {
    // A client that goes away mid-body (or sends less than its Content-Length) is a bad request, not a crash.
    throw badRequest('The request body was not received completely.')
  }
  if (size > limit) throw new HttpError(413, 'Request body too large.')
  return Buffer.concat(chunks)
}
