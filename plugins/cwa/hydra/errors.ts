import { ValidationError } from 'payload'
import { type DatabaseError, databaseError, databaseErrorFromRequest, type RequestInput } from './requestInput.js'
import {
  CONFLICT_RETRY_AFTER,
  DATABASE_RETRY_AFTER,
  isDatabaseUnavailable,
  isTransientConflict,
} from '../core/utils/databaseUnavailable.js'
import { brand, brandedInstanceOf } from '../core/utils/brand.js'

/** An HTTP error the JSON-LD layer turns into a Hydra `Error` body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
    brand(this, 'HttpError')
  }

  // Another copy of the package throws them too (core/utils/brand.ts).
  static [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, HttpError, 'HttpError', value)
  }
}

export const badRequest = (detail: string) => new HttpError(400, detail)
export const notFound = (detail = 'Not Found') => new HttpError(404, detail)
export const unauthorized = (detail = 'Full authentication is required to access this resource.') =>
  new HttpError(401, detail)
export const forbidden = (detail = 'Access Denied.') => new HttpError(403, detail)

/** One violation of a constraint, as API Platform lists them. */
export interface Violation {
  propertyPath: string
  message: string
  code: string | null
}

/** A 422 with a list of violations (ConstraintViolation body). */
export class ViolationError extends Error {
  readonly status = 422
  constructor(readonly violations: Violation[]) {
    super(violations.map((v) => `${v.propertyPath}: ${v.message}`).join('\n'))
    this.name = 'ViolationError'
    brand(this, 'ViolationError')
  }

  // Another copy of the package throws them too (core/utils/brand.ts).
  static [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, ViolationError, 'ViolationError', value)
  }
}

export const violation = (propertyPath: string, message: string, code: string | null = null): Violation => ({
  propertyPath,
  message,
  code,
})

const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
}

export function statusTitle(status: number): string {
  return STATUS_TITLES[status] ?? 'An error occurred'
}

/** Guesses a stable code for a Payload validation message. */
function payloadViolationCode(message: string): string {
  // A validator naming its constraint at the end of its message ("... (FormTypeClass).") gives that code.
  const declared = /\(([A-Z][A-Za-z]+)\)\.?$/.exec(message)
  if (declared) return declared[1]!
  if (/required/i.test(message)) return 'required'
  if (/unique/i.test(message)) return 'unique'
  return 'invalid'
}

const camel = (column: string) => column.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())

/** The property a database error is about, when it names one (`column`, or `Key (col)=...` in detail). */
function databaseProperty(error: DatabaseError): string {
  if (error.column) return camel(error.column)
  const key = /Key \(([a-z0-9_]+)\)/i.exec(error.detail ?? '')
  return key ? camel(key[1]!) : ''
}

/**
 * Database errors caused by the values a client sent are the client's
 * fault, never a 500: data exceptions (class 22: bad encoding, out of range,
 * invalid text representation...), integrity violations (class 23) and an
 * index entry too large (54000). On a read they are a 400 (a query parameter
 * was at fault); on a write a 422 with a violation; on a DELETE an integrity
 * violation means the resource is still referenced (409).
 */
function classifyDatabaseError(error: DatabaseError, method: string): HttpError | ViolationError | null {
  const { code } = error
  const read = method === 'GET' || method === 'HEAD'
  const property = databaseProperty(error)
  if (code === '23505') return new ViolationError([violation(property, 'This value is already used.', 'unique')])
  if (code.startsWith('23')) {
    if (method === 'DELETE') return new HttpError(409, 'The resource is still referenced by other resources.')
    if (read) return badRequest('The request could not be processed.')
    return new ViolationError([violation(property, 'This value is not valid here.', 'integrity')])
  }
  if (code.startsWith('22') || code === '54000') {
    if (read || method === 'DELETE') return badRequest('A request parameter holds a value the database cannot process.')
    return new ViolationError([
      violation(property, 'This value cannot be stored.', code === '54000' ? 'too_long' : 'invalid_value'),
    ])
  }
  return null
}

/**
 * Normalises anything thrown by a handler or by Payload into either an
 * HttpError or a ViolationError. `anonymous` turns Payload's Forbidden into
 * 401 for callers who are not signed in; `method` tells how a database
 * error caused by bad input is reported (see classifyDatabaseError).
 * With `input` (what the client sent), a database error is the client's
 * only when the value it is about came from the request; otherwise it is a
 * 500 (a server bug must not look like a client mistake).
 */
export function classifyError(
  error: unknown,
  anonymous: boolean,
  method = 'GET',
  input?: RequestInput,
): HttpError | ViolationError {
  if (error instanceof HttpError || error instanceof ViolationError) return error
  if (error instanceof ValidationError) {
    const errors = (error.data as { errors?: Array<{ path?: string; message?: string; code?: string }> })?.errors ?? []
    return new ViolationError(
      errors.map((e) =>
        violation(e.path ?? '', e.message ?? 'Invalid value.', e.code ?? payloadViolationCode(e.message ?? '')),
      ),
    )
  }
  const status = (error as { status?: unknown })?.status ?? (error as { statusCode?: unknown })?.statusCode
  const name = (error as { name?: string })?.name
  if (name === 'Forbidden' || status === 403) {
    return anonymous ? unauthorized() : forbidden()
  }
  if (name === 'NotFound' || status === 404) return notFound()
  if (name === 'UnauthorizedError' || name === 'AuthenticationError' || status === 401) return unauthorized()
  if (name === 'QueryError') return badRequest((error as Error).message)
  if ((error as { type?: string })?.type === 'entity.too.large') return new HttpError(413, 'Request body too large.')
  if ((error as { type?: string })?.type === 'entity.parse.failed') return badRequest('Syntax error: malformed JSON.')
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Payload's APIError, Express' own errors (a path parameter that is not valid percent-encoding: URIError 400).
    return new HttpError(status, error instanceof Error && error.message ? error.message : statusTitle(status))
  }
  // The database is down, restarting or frozen past the pool's timeouts: retry later, not a server bug.
  if (isDatabaseUnavailable(error)) {
    return new HttpError(503, 'The database is unavailable; retry shortly.', {
      'Retry-After': String(DATABASE_RETRY_AFTER),
    })
  }
  // A deadlock or serialization failure: rolled back whole, and sent again it succeeds.
  if (isTransientConflict(error)) {
    return new HttpError(503, 'The request met a concurrent write and was rolled back whole; send it again.', {
      'Retry-After': String(CONFLICT_RETRY_AFTER),
    })
  }
  const database = databaseError(error)
  if (database && (!input || databaseErrorFromRequest(database, input, method))) {
    const classified = classifyDatabaseError(database, method.toUpperCase())
    if (classified) return classified
  }
  return new HttpError(500, 'Internal Server Error')
}
