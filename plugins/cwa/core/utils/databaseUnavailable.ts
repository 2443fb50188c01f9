/**
 * Whether an error means the database cannot be reached right now (it is
 * down, restarting, frozen past the pool's timeouts, or it dropped the
 * connection), as opposed to a query it refused. Such requests are answered
 * 503 with `Retry-After` (DATABASE_RETRY_AFTER seconds), never 500.
 */
export const DATABASE_RETRY_AFTER = 5

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
])
// SQLSTATE: class 08 (connection exception), 57P01-57P03 (administrator/crash shutdown, cannot connect now),
// 57014 (statement_timeout), 53300 (too many connections).
const SQLSTATE = /^(08...|57P0[1-3]|57014|53300)$/
// Messages, also where a wrapper kept only the text (Payload: "cannot begin transaction: connect ECONNREFUSED ...").
const MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|not queryable|Cannot use a pool after calling end|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection|\b(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT)\b|cannot begin transaction/i

/**
 * Whether an error is PostgreSQL rolling a transaction back because it met
 * a concurrent one (40001 serialization failure, 40P01 deadlock detected):
 * nothing of it was written, and the same request succeeds when sent again.
 * Answered 503 with `Retry-After: 1` (CONFLICT_RETRY_AFTER), never 500.
 */
export const CONFLICT_RETRY_AFTER = 1
const TRANSIENT_SQLSTATE = /^(40001|40P01)$/

export function isTransientConflict(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string' && TRANSIENT_SQLSTATE.test(candidate.code)) return true
    current = candidate.cause
  }
  return false
}

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (typeof candidate.code === 'string' && (NETWORK_CODES.has(candidate.code) || SQLSTATE.test(candidate.code)))
      return true
    if (typeof candidate.message === 'string' && MESSAGES.test(candidate.message)) return true
    current = candidate.cause
  }
  return false
}
