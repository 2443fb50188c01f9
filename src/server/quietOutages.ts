import type { Payload } from 'payload'
import { isDatabaseUnavailable } from 'payload-cwa'
import { innermostReason } from './innermostReason'

/**
 * While the database is down or frozen every request fails the same way, and
 * Payload and the JSON-LD API would each log a stack trace per request: log
 * one line in words instead, at most every 5 s, with how many were folded in.
 */
export function quietDatabaseOutages(payload: Payload, stopping: () => boolean): void {
  const logger = payload.logger as unknown as { error: (...args: unknown[]) => void; warn: (message: string) => void }
  const original = logger.error
  let last = 0
  let folded = 0
  let saidWhileStopping = false
  logger.error = (...args: unknown[]) => {
    const first = args[0]
    const error =
      first instanceof Error ? first : first && typeof first === 'object' ? (first as { err?: unknown }).err : undefined
    if (!error || !isDatabaseUnavailable(error)) return original.apply(logger, args)
    // A terminal's Ctrl-C reaches the embedded PostgreSQL too: work still running as the process stops finds it gone.
    if (stopping()) {
      if (!saidWhileStopping) payload.logger.info('Work still running while stopping found the database closed')
      saidWhileStopping = true
      return
    }
    if (Date.now() - last < 5000) {
      folded++
      return
    }
    const reason = innermostReason(error, 200)
    logger.warn(
      `The database is unavailable (${reason}): requests are answered 503 with Retry-After until it is back${folded ? ` (${folded} more failed requests since the last such line)` : ''}`,
    )
    last = Date.now()
    folded = 0
  }
}
