import { randomUUID } from 'node:crypto'

/**
 * What a client sent, as text: the decoded path and query and every key and
 * scalar of the body. A database error is the client's fault (a 4xx) only
 * when the value it complains about is found here; anything else is a
 * server bug (a 500 with a correlation id, logged).
 */
export interface RequestInput {
  texts: string[]
}

const MAX_TEXTS = 10_000

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** The request's path, query and body (a parsed JSON value, a string, or nothing) as texts to search. */
export function requestInput(url: URL | string, body?: unknown): RequestInput {
  const href = typeof url === 'string' ? url : `${url.pathname}${url.search}`
  const texts = [decode(href)]
  const [path = '', search = ''] = href.split('?', 2)
  for (const segment of path.split('/')) if (segment) texts.push(decode(segment))
  for (const pair of search.split('&')) for (const part of pair.split('=')) if (part) texts.push(decode(part))
  const walk = (value: unknown, depth: number) => {
    if (texts.length >= MAX_TEXTS || depth > 64) return
    if (typeof value === 'string') texts.push(value)
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
      texts.push(String(value))
    else if (Array.isArray(value)) for (const item of value) walk(item, depth + 1)
    else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        texts.push(key)
        walk(item, depth + 1)
      }
    }
  }
  walk(body, 0)
  return { texts }
}

/** A PostgreSQL error (node-postgres DatabaseError), found on the error or its `cause` chain. */
export interface DatabaseError {
  code: string
  message: string
  column?: string
  detail?: string
  table?: string
  routine?: string
}

export function databaseError(error: unknown): DatabaseError | null {
  let current: unknown = error
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; severity?: unknown; routine?: unknown; cause?: unknown }
    if (
      typeof candidate.code === 'string' &&
      /^[0-9A-Z]{5}$/.test(candidate.code) &&
      (candidate.severity !== undefined || candidate.routine !== undefined)
    ) {
      return candidate as DatabaseError
    }
    current = candidate.cause
  }
  return null
}

// A NUL or a lone surrogate: text PostgreSQL cannot hold.
// eslint-disable-next-line no-control-regex -- the NUL is the character looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const WRITES = new Set(['POST', 'PATCH', 'PUT'])

/**
 * Whether the value a database error is about came from the request:
 * the value it quotes (`invalid input syntax for type uuid: "a"`, `value
 * "9999999999" is out of range`) is one the client sent; text the database
 * cannot encode (NUL) was sent; or, on a write, a value too long or a
 * constraint violated by the data written (the body is their source).
 */
export function databaseErrorFromRequest(error: DatabaseError, input: RequestInput, method: string): boolean {
  const { code } = error
  const write = WRITES.has(method.toUpperCase())
  if (code === '22021' || code === '22P05') return input.texts.some((text) => UNSTORABLE.test(text))
  if (write && (code === '54000' || code === '22001' || code.startsWith('23'))) return true
  // Deleting what other records still need: the deletion the client asked for.
  if (method.toUpperCase() === 'DELETE' && code.startsWith('23')) return true
  const quoted = [...(error.message ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)]
    .map((m) => m[1]!)
    .filter((value) => value !== 'UTF8')
  return quoted.some((value) => value !== '' && input.texts.some((text) => sent(text, value)))
}

/** A value is sent when a text is it, or one of its comma-separated parts (Payload splits `in` lists); a long one anywhere inside. */
function sent(text: string, value: string): boolean {
  if (text === value) return true
  if (text.includes(',') && text.split(',').some((part) => part.trim() === value)) return true
  return value.length >= 8 && text.includes(value)
}

/** A reference that ties a 500 answer to its log line. */
export const correlationId = (): string => randomUUID()

/**
 * A database error for the log: its code, the database's own message (which
 * names at most the offending value), where it happened; never the query's
 * parameters (drizzle's "Failed query ... params:" message carries them all).
 */
export function describeDatabaseError(error: DatabaseError, failed?: unknown): Record<string, unknown> {
  const query = (failed as { query?: unknown } | null)?.query
  return {
    code: error.code,
    message: error.message,
    ...(error.table ? { table: error.table } : {}),
    ...(error.column ? { column: error.column } : {}),
    ...(error.routine ? { routine: error.routine } : {}),
    ...(typeof query === 'string' ? { sql: query } : {}),
  }
}
