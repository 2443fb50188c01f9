import { APIError, ValidationError } from 'payload'

/** An HTTP error the JSON-LD layer turns into a Hydra `Error` body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
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
  if (/required/i.test(message)) return 'required'
  if (/unique/i.test(message)) return 'unique'
  return 'invalid'
}

/**
 * Normalises anything thrown by a handler or by Payload into either an
 * HttpError or a ViolationError. `anonymous` turns Payload's Forbidden into
 * 401 for callers who are not signed in.
 */
export function classifyError(error: unknown, anonymous: boolean): HttpError | ViolationError {
  if (error instanceof HttpError || error instanceof ViolationError) return error
  if (error instanceof ValidationError) {
    const errors = (error.data as { errors?: Array<{ path?: string; message?: string; code?: string }> })?.errors ?? []
    return new ViolationError(
      errors.map((e) => violation(e.path ?? '', e.message ?? 'Invalid value.', e.code ?? payloadViolationCode(e.message ?? ''))),
    )
  }
  const status = (error as { status?: number })?.status
  const name = (error as { name?: string })?.name
  if (name === 'Forbidden' || status === 403) {
    return anonymous ? unauthorized() : forbidden()
  }
  if (name === 'NotFound' || status === 404) return notFound()
  if (name === 'UnauthorizedError' || name === 'AuthenticationError' || status === 401) return unauthorized()
  if (name === 'QueryError') return badRequest((error as Error).message)
  if (error instanceof APIError && typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, error.message)
  }
  if ((error as { type?: string })?.type === 'entity.too.large') return new HttpError(413, 'Request body too large.')
  if ((error as { type?: string })?.type === 'entity.parse.failed') return badRequest('Syntax error: malformed JSON.')
  return new HttpError(500, 'Internal Server Error')
}
