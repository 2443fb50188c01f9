import { APIError, type AfterErrorHook } from 'payload'
import { CONFLICT_RETRY_AFTER, isDatabaseUnavailable, isTransientConflict } from '../core/utils/databaseUnavailable.js'
import {
  correlationId,
  databaseError,
  databaseErrorFromRequest,
  describeDatabaseError,
  requestInput,
} from './requestInput.js'

/**
 * A refusal the client caused on Payload's APIs (a conflict, a value the
 * service refuses: a 4xx), as Payload's APIError with a name of its own, so
 * that Payload's error handler logs it at the level REFUSAL_LOG_LEVELS give
 * it (info: its message, no stack) instead of as an ERROR with a stack.
 */
export class RefusedRequest extends APIError {
  constructor(message: string, status: number, data: Record<string, unknown> | null = null) {
    super(message, status, data, true)
    this.name = 'RefusedRequest'
  }
}

/**
 * Payload's `loggingLevels` for the refusals a working site answers every
 * day: an editor's stale write (412) and the service's other 4xx refusals
 * (RefusedRequest), a wrong password (Payload's AuthenticationError, an
 * ERROR line with a stack by default). A site's own `loggingLevels` win.
 */
export const REFUSAL_LOG_LEVELS: Record<string, 'info'> = { RefusedRequest: 'info', AuthenticationError: 'info' }

/**
 * Payload's REST API (config `hooks.afterError`): a database error about a
 * value the client sent (a NUL, a malformed id or date in a filter) is a
 * 400 in Payload's error shape, not a 500; any other database error stays
 * a 500, answered and logged with a correlation id (the log line names the
 * database's code and message, never the query's parameters).
 */
export const payloadApiAfterError: AfterErrorHook = ({ error, req }) => {
  const database = databaseError(error)
  // Unavailable (down, restarting, timed out) is a 503, another hook's answer.
  if (!database || isDatabaseUnavailable(error)) return
  // A deadlock or serialization failure: rolled back whole, and sent again it succeeds.
  if (isTransientConflict(error)) {
    req.payload.logger.warn(
      { database: describeDatabaseError(database), method: req.method },
      'REST request rolled back by a concurrent write (answered 503, Retry-After)',
    )
    req.responseHeaders = new Headers(req.responseHeaders)
    req.responseHeaders.set('Retry-After', String(CONFLICT_RETRY_AFTER))
    return {
      status: 503,
      response: {
        errors: [{ message: 'The request met a concurrent write and was rolled back whole; send it again.' }],
      },
    }
  }
  const method = (req.method ?? 'GET').toUpperCase()
  let url = req.url ?? ''
  try {
    const parsed = new URL(url, 'http://localhost')
    url = `${parsed.pathname}${parsed.search}`
  } catch {
    // keep it as it is
  }
  if (databaseErrorFromRequest(database, requestInput(url, req.data), method)) {
    req.payload.logger.info(
      { database: describeDatabaseError(database), method },
      'REST request refused: the database cannot process a value sent',
    )
    const message =
      method === 'GET' || method === 'HEAD' || method === 'DELETE'
        ? 'A request parameter holds a value the database cannot process.'
        : 'A value sent cannot be stored.'
    return { status: 400, response: { errors: [{ message }] } }
  }
  const reference = correlationId()
  req.payload.logger.error(
    { database: describeDatabaseError(database, error), correlationId: reference, method },
    `REST request failed (correlation id ${reference})`,
  )
  return {
    status: 500,
    response: {
      errors: [{ message: `Something went wrong (correlation id ${reference}).`, correlationId: reference }],
    },
  }
}
