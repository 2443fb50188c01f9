import type { Collection, Payload } from 'payload'
import { parse } from 'qs-esm'
import {
  discardRest,
  jsonTooDeep,
  MAX_ANONYMOUS_BODY_BYTES,
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
} from '../hydra/pipeline/body.js'

/**
 * What Payload's REST API (/api) is handed: checked here first, so that bad
 * input is a 400 (or 413) in Payload's error shape instead of a database
 * error or a stack overflow (a 500).
 */

/** A refusal in Payload's own error shape (`{ errors: [{ message }] }`). */
export class RestInputError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'RestInputError'
  }
}

const bad = (message: string) => new RestInputError(400, message)

/** Operators only a `point` field takes (the PostgreSQL adapter has them for nothing else). */
const GEO_OPERATORS = new Set(['near', 'within', 'intersects'])
const MAX_INTEGER = 2_147_483_647

interface FieldLike {
  name?: string
  type?: string
  flattenedFields?: FieldLike[]
}

/** The field a dotted query path names, through groups and tabs; undefined when it names none. */
function fieldAt(fields: FieldLike[] | undefined, path: string): FieldLike | undefined {
  let current = fields
  let found: FieldLike | undefined
  for (const part of path.split('.')) {
    found = current?.find((field) => field.name === part)
    if (!found) return undefined
    current = found.flattenedFields
  }
  return found
}

/** Walks a `where` object: every path with its operators, through `and` / `or`. */
function checkWhere(where: unknown, fields: FieldLike[] | undefined, depth = 0): void {
  if (depth > 20 || !where || typeof where !== 'object') return
  for (const [path, condition] of Object.entries(where as Record<string, unknown>)) {
    if (path.toLowerCase() === 'and' || path.toLowerCase() === 'or') {
      for (const nested of Array.isArray(condition) ? condition : Object.values((condition as object) ?? {}))
        checkWhere(nested, fields, depth + 1)
      continue
    }
    if (!condition || typeof condition !== 'object') continue
    for (const operator of Object.keys(condition)) {
      if (!GEO_OPERATORS.has(operator)) continue
      const field = fieldAt(fields, path)
      // An unknown path is Payload's own 400 ("The following path cannot be queried").
      if (field && field.type !== 'point') {
        throw bad(`The operator "${operator}" applies to point fields only; "${path}" is not one.`)
      }
    }
  }
}

/** A query parameter that must be a whole number from `min`. */
function checkInteger(query: Record<string, unknown>, name: string, min: number): void {
  const value = query[name]
  if (value === undefined || typeof value !== 'string') return
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > MAX_INTEGER) {
    throw bad(`The query parameter "${name}" must be a whole number from ${min} to ${MAX_INTEGER}.`)
  }
}

/** `where` or `data` sent as a JSON string (Payload parses it): valid JSON, not too deep. */
function parseJsonParameter(query: Record<string, unknown>, name: string): void {
  const value = query[name]
  if (typeof value !== 'string' || value.length === 0) return
  if (jsonTooDeep(value)) throw bad(`The query parameter "${name}" is nested more than ${MAX_JSON_DEPTH} levels deep.`)
  try {
    query[name] = JSON.parse(value)
  } catch {
    throw bad(`The query parameter "${name}" is not valid JSON.`)
  }
}

/**
 * Checks a query string as Payload will parse it (qs, depth 10): no NUL
 * character anywhere (PostgreSQL text cannot hold one), `page` from 1,
 * `limit` and `depth` from 0 (a negative page made a negative OFFSET),
 * `where` and `data` as JSON strings valid and not too deep, and geometric
 * operators only on point fields (`within` on a date failed in the adapter).
 */
export function checkRestQuery(payload: Payload, pathname: string, search: string): void {
  if (!search || search === '?') return
  let decoded = search
  try {
    decoded = decodeURIComponent(search.replace(/\+/g, ' '))
  } catch {
    throw bad('The query string is not valid percent-encoding.')
  }
  if (decoded.includes('\u0000')) throw bad('A query parameter holds a NUL character, which cannot be searched for.')
  const query = parse(search, {
    allowEmptyArrays: true,
    arrayLimit: 1000,
    depth: 10,
    ignoreQueryPrefix: true,
  }) as Record<string, unknown>
  checkInteger(query, 'page', 1)
  checkInteger(query, 'limit', 0)
  checkInteger(query, 'depth', 0)
  parseJsonParameter(query, 'where')
  parseJsonParameter(query, 'data')
  const slug = pathname.replace(/^\/+/, '').split('/')[0] ?? ''
  // `config?.`: a path such as /constructor reaches the object's prototype, which has no config.
  const collection: Collection | undefined = payload.collections[slug]
  checkWhere(query.where, collection?.config?.flattenedFields)
}

/** Whether a request carries something that may sign it in (a header or any cookie): only then is it worth asking. */
export function mayBeSignedIn(headers: Headers): boolean {
  return Boolean(headers.get('authorization') || headers.get('cookie'))
}

const tooLarge = (limit: number) =>
  new RestInputError(
    413,
    limit < MAX_BODY_BYTES
      ? `Request body too large: anonymous requests may send at most ${limit / 1024} KiB; sign in to send more.`
      : `Request body too large: at most ${limit / 1024 / 1024} MiB.`,
  )

/**
 * Reads a request body with the JSON-LD API's limits: 64 KiB for anonymous
 * callers, 21 MiB signed in. The caller is identified (`signedIn`) only
 * when a body passes 64 KiB, so small requests cost nothing more. A
 * Content-Length past the limit is refused before a byte is read; past it
 * while reading, the rest is left unread (the connection is closed).
 */
export async function readRestBody(
  body: AsyncIterable<Uint8Array>,
  headers: Headers,
  signedIn: () => Promise<boolean>,
): Promise<Buffer> {
  let limit = MAX_ANONYMOUS_BODY_BYTES
  let identified = false
  const raise = async (size: number) => {
    if (!identified) {
      identified = true
      if (mayBeSignedIn(headers) && (await signedIn())) limit = MAX_BODY_BYTES
    }
    if (size > limit) throw tooLarge(limit)
  }
  // Not for-await: leaving it would destroy the request, and its connection under the 413.
  const iterator = body[Symbol.asyncIterator]()
  const refuseAbove = async (size: number) => {
    try {
      await raise(size)
    } catch (error) {
      discardRest(body, iterator)
      throw error
    }
  }
  const declared = headers.get('content-length')
  if (declared && /^\d+$/.test(declared.trim()) && Number(declared) > limit) await refuseAbove(Number(declared))
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const next = await iterator.next()
    if (next.done) break
    size += next.value.length
    if (size > limit) await refuseAbove(size)
    chunks.push(next.value)
  }
  return Buffer.concat(chunks)
}

const isJson = (type: string) => type === 'application/json' || type.endsWith('+json')

/** The `_payload` field of a multipart body (Payload's JSON data beside the file), as latin1 text (brackets and quotes are ASCII). */
export function multipartPayloadField(body: Buffer, contentType: string): string | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType)
  if (!boundary) return null
  const text = body.toString('latin1')
  for (const part of text.split(`--${(boundary[1] ?? boundary[2])!.trim()}`)) {
    const split = part.indexOf('\r\n\r\n')
    if (split < 0) continue
    if (/name="_payload"/i.test(part.slice(0, split))) return part.slice(split + 4).replace(/\r\n$/, '')
  }
  return null
}

/**
 * A JSON body (or the `_payload` field of a multipart body, or a query
 * string sent as a form body with a GET override) checked as its query
 * and depth would be: nested past MAX_JSON_DEPTH levels is a 400.
 */
export function checkRestBody(payload: Payload, pathname: string, body: Buffer, headers: Headers): void {
  if (body.length === 0) return
  const contentType = headers.get('content-type') ?? ''
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  let json: string | null = null
  if (isJson(type)) json = body.toString('utf8')
  else if (type === 'multipart/form-data') json = multipartPayloadField(body, contentType)
  else if (type === 'application/x-www-form-urlencoded') {
    const override = (
      headers.get('x-payload-http-method-override') ??
      headers.get('x-http-method-override') ??
      ''
    ).toUpperCase()
    if (override === 'GET') checkRestQuery(payload, pathname, `?${body.toString('utf8')}`)
  }
  if (json !== null && jsonTooDeep(json)) {
    throw bad(`The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep.`)
  }
}
