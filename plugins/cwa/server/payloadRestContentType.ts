import type { Payload } from 'payload'
import { RestInputError } from './payloadRestInput.js'

/**
 * The content type of a document write on Payload's REST API (/api).
 * Payload reads a body as JSON only when its type is exactly
 * `application/json`; any other type leaves the operation without data,
 * and its hooks failed on that (a 500). So JSON by any of its names
 * (`application/merge-patch+json`, which the JSON-LD API's front ends send
 * with PATCH, `application/ld+json`, any case, any parameters) is handed to
 * Payload as `application/json`; a body of another type is a 415; a body
 * that is no JSON object (malformed, `null`, an array) is a 400.
 */

/** The Payload endpoints whose body becomes a document's data: collection create, update (many, one), duplicate; global update. */
const COLLECTION_WRITES = new Set(['post /', 'patch /', 'patch /:id', 'post /:id/duplicate'])
const GLOBAL_WRITES = new Set(['post /'])

/** Whether an endpoint's path (`/:id/duplicate`, `/access/:id?`) matches a request's path, as Payload's router would. */
function pathMatches(template: string, path: string): boolean {
  const want = template.split('/').filter(Boolean)
  const have = path.split('/').filter(Boolean)
  const required = want.filter((segment) => !segment.endsWith('?')).length
  if (have.length < required || have.length > want.length) return false
  return have.every((segment, i) => want[i]!.startsWith(':') || want[i] === segment)
}

const ACCEPTED = 'application/json, application/merge-patch+json, application/ld+json or multipart/form-data'

const isJsonType = (type: string) =>
  type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))

/** A document write Payload runs itself: whether its collection takes uploads (a file may then come without `_payload`). */
export interface DocumentWrite {
  upload: boolean
}

/** The document write a method and a path under /api (`/pages/1`, `/globals/site`) name; null when they name none. */
export function documentWrite(
  payload: Payload,
  method: string,
  pathname: string,
  headers: Headers,
): DocumentWrite | null {
  // A POST overridden to a GET (Payload takes exactly "GET") is a query sent as a form body, checked by checkRestBody.
  const overridden = ['x-payload-http-method-override', 'x-http-method-override'].some((h) => headers.get(h) === 'GET')
  if (method === 'POST' && overridden) return null
  const segments = pathname.split('/').filter(Boolean)
  const isGlobal = segments[0] === 'globals'
  const slug = isGlobal ? segments[1] : segments[0]
  if (!slug) return null
  const found = isGlobal
    ? payload.config.globals.find((global) => global.slug === slug)
    : Object.hasOwn(payload.collections, slug)
      ? payload.collections[slug]?.config
      : undefined
  if (!found) return null
  const rest = `/${segments.slice(isGlobal ? 2 : 1).join('/')}`
  // Payload takes the first endpoint that matches; an app's own come before its built-in ones, so one of the
  // same method and path as a built-in write replaces it (it is then listed twice) and reads its body itself.
  const matching = (found.endpoints || []).filter(
    (endpoint) => endpoint.method.toUpperCase() === method && pathMatches(endpoint.path, rest),
  )
  const first = matching[0]
  if (!first || matching.some((endpoint) => endpoint !== first && endpoint.path === first.path)) return null
  const writes = isGlobal ? GLOBAL_WRITES : COLLECTION_WRITES
  if (!writes.has(`${first.method} ${first.path}`)) return null
  return { upload: 'upload' in found && Boolean(found.upload) }
}

/**
 * The body Payload is handed for a document write: JSON under any of its
 * names becomes `application/json` (the header is rewritten in `headers`)
 * and must hold an object; an empty body without a type is an empty object
 * (nothing to change); multipart passes; anything else is a 415.
 */
export function documentWriteBody(method: string, body: Buffer, headers: Headers): Buffer {
  const contentType = headers.get('content-type') ?? ''
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  if (type === 'multipart/form-data') return body
  if (body.length === 0 && (type === '' || isJsonType(type))) {
    headers.set('content-type', 'application/json')
    return Buffer.from('{}')
  }
  if (!isJsonType(type)) {
    throw new RestInputError(
      415,
      `Unsupported content type ${type ? `"${type}"` : '(none was sent)'}: send the document as ${ACCEPTED}.`,
      method === 'PATCH' ? { 'Accept-Patch': 'application/json, application/merge-patch+json' } : {},
    )
  }
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    throw new RestInputError(400, 'The request body is not valid JSON.')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new RestInputError(400, 'The request body must be a JSON object (the fields to write).')
  }
  headers.set('content-type', 'application/json')
  return body
}

/**
 * The `_payload` field of a multipart document write (the document's JSON
 * beside the file) must be a JSON object: Payload's parse of it threw (a
 * 500). Without one, only a collection taking uploads has data (the file).
 */
export function checkMultipartPayload(field: string | null, write: DocumentWrite): void {
  if (field === null) {
    if (write.upload) return
    throw new RestInputError(400, 'A multipart body must hold the document as JSON in a "_payload" field.')
  }
  let value: unknown
  try {
    value = JSON.parse(field)
  } catch {
    throw new RestInputError(400, 'The "_payload" field of the multipart body is not valid JSON.')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new RestInputError(400, 'The "_payload" field of the multipart body must be a JSON object.')
  }
}
