import { type HttpError, statusTitle, type ViolationError } from './errors.js'
import { contextIri } from './serializer.js'

/** The JSON-LD body of an error (Hydra `Error` or `ConstraintViolation`). */
export function errorBody(error: HttpError | ViolationError, apiPrefix: string): Record<string, unknown> {
  if ('violations' in error) {
    const description = error.violations
      .map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message))
      .join('\n')
    return {
      '@context': contextIri(apiPrefix, 'ConstraintViolation'),
      '@id': `${apiPrefix}/validation_errors/${error.violations[0]?.code ?? 'invalid'}`,
      '@type': 'ConstraintViolation',
      status: 422,
      title: 'An error occurred',
      detail: description,
      description,
      // A human sentence a client can show as it is.
      message: description,
      violations: error.violations,
    }
  }
  const detail =
    error.status >= 500 && error.status !== 502 && error.status !== 503 ? statusTitle(error.status) : error.message
  return {
    '@context': contextIri(apiPrefix, 'Error'),
    '@id': `${apiPrefix}/errors/${error.status}`,
    '@type': 'Error',
    title: statusTitle(error.status),
    detail,
    description: detail,
    // A human sentence a client can show as it is ("Invalid credentials." rather than "Unauthorized").
    message: detail,
    status: error.status,
    type: `/errors/${error.status}`,
    // A 412 (If-Match): what changed and when (hydra/version.ts).
    ...('conflict' in error && error.conflict ? { conflict: error.conflict } : {}),
  }
}
