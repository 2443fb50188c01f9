import { errorBody } from '../errorBody.js'
import { classifyError, HttpError } from '../errors.js'
import { correlationId, databaseError, describeDatabaseError, requestInput } from '../requestInput.js'
import { isTransientConflict } from '../../core/utils/databaseUnavailable.js'
import { type ApiResponse, JSONLD, type Sent } from './messages.js'
import { asServed } from './serve.js'
import type { ApiRuntime } from './runtime.js'

/**
 * Every error becomes a JSON-LD body. A 500 carries a correlation id in its
 * body and in its log line, logged under the endpoint's template (no token
 * in a path reaches the log); a database error is logged by its code and
 * message, never with the query's parameters.
 */
export async function errorResponse(
  runtime: ApiRuntime,
  error: unknown,
  request: { method: string; endpointPath: string; anonymous: boolean; headers: Headers; sent: Sent },
): Promise<ApiResponse> {
  const classified = classifyError(
    error,
    request.anonymous,
    request.method,
    requestInput(request.sent.url, request.sent.body),
  )
  let reference: string | undefined
  if (classified.status === 500) {
    reference = correlationId()
    const database = databaseError(error)
    const logged = database ? { database: describeDatabaseError(database, error) } : { err: error }
    runtime.payload.logger.error(
      { ...logged, correlationId: reference, method: request.method, path: request.endpointPath },
      `JSON-LD request failed (correlation id ${reference})`,
    )
  } else if (isTransientConflict(error)) {
    const database = databaseError(error)
    runtime.payload.logger.warn(
      {
        ...(database ? { database: describeDatabaseError(database) } : {}),
        method: request.method,
        path: request.endpointPath,
      },
      'JSON-LD request rolled back by a concurrent write (answered 503, Retry-After)',
    )
  } else if (classified.status >= 500) {
    runtime.payload.logger.error(
      { err: error, method: request.method, path: request.endpointPath },
      'JSON-LD request failed',
    )
  } else {
    // A database error about a value the client sent: the client's, but still on record (code and message, no parameters).
    const database = databaseError(error)
    if (database) {
      runtime.payload.logger.info(
        { database: describeDatabaseError(database), method: request.method, path: request.endpointPath },
        'JSON-LD request refused: the database cannot process a value sent',
      )
    }
  }
  if (classified instanceof HttpError) {
    for (const [name, value] of Object.entries(classified.headers)) request.headers.set(name, value)
  }
  request.headers.set('Content-Type', JSONLD)
  // Written as every answer is: through the profiles (an error's hydra: keys).
  const json = await asServed(
    runtime.extensions,
    { payload: runtime.payload, ctx: null },
    withReference(errorBody(classified, runtime.options.apiPrefix), reference),
  )
  const body = request.method === 'HEAD' ? null : JSON.stringify(json)
  return { status: classified.status, headers: request.headers, body }
}

/** A 500's correlation id, in its description too (what a client shows and reports). */
function withReference(body: Record<string, unknown>, reference: string | undefined): Record<string, unknown> {
  if (!reference) return body
  const detail = `${String(body.detail)} (correlation id ${reference})`
  return { ...body, detail, description: detail, message: detail, correlationId: reference }
}
