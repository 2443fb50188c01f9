import type { CwaViolation } from './types.js'

/**
 * Why a request did not give what was asked, as a value (never thrown by the client): the API's answer (an HTTP
 * status with the contract's error body), no answer at all (network), or an answer that is not the API's.
 */
export type CwaError =
  | {
      kind: 'http'
      status: number
      /** The error's sentence, as a client may show it ("Invalid credentials."). */
      message: string
      /** A 422's violations, one per property. */
      violations: CwaViolation[]
      /** The whole error body, when it is JSON. */
      body?: unknown
    }
  | { kind: 'network'; message: string }
  | { kind: 'invalid'; status: number; message: string }

export type CwaResult<T> = { ok: true; value: T } | { ok: false; error: CwaError }

export const success = <T>(value: T): CwaResult<T> => ({ ok: true, value })
export const failure = <T>(error: CwaError): CwaResult<T> => ({ ok: false, error })

/** The error of an answer that is not 2xx: the contract's JSON-LD error body (`detail`, `violations`) when it has one. */
export function httpError(status: number, body: unknown): CwaError {
  const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {}
  const text = [record.detail, record.message, record.title].find((value) => typeof value === 'string')
  const violations = Array.isArray(record.violations)
    ? record.violations.filter(
        (violation): violation is CwaViolation =>
          Boolean(violation) && typeof violation === 'object' && typeof violation.propertyPath === 'string',
      )
    : []
  return {
    kind: 'http',
    status,
    message: typeof text === 'string' ? text : `HTTP ${status}`,
    violations,
    ...(body === undefined ? {} : { body }),
  }
}
