import type { Payload } from 'payload'

/**
 * Log capture: what the service hands to `payload.logger` at one level,
 * recorded while still logged as usual.
 *
 *   const errors = captureLogs(server.payload)          // until errors.restore()
 *   const text = await loggedDuring(server.payload, async () => { ... })
 */

export type LogLevel = 'error' | 'warn' | 'info'

export interface LogCapture {
  /** The arguments of every call so far (pino style: `[object, message]` or `[message]`). */
  calls: unknown[][]
  /** Whether some call had this message (and, when given, these fields in its object). */
  logged(message: string, fields?: Record<string, unknown>): boolean
  /** Every call as JSON text (an Error as its message), for matching. */
  text(): string
  clear(): void
  /** Puts the logger's own method back. */
  restore(): void
}

function asText(calls: unknown[][]): string {
  return JSON.stringify(calls, (_key, value: unknown) => (value instanceof Error ? { message: value.message } : value))
}

export function captureLogs(payload: Payload, level: LogLevel = 'error'): LogCapture {
  const logger = payload.logger as unknown as Record<LogLevel, (...args: unknown[]) => unknown>
  const original = logger[level]
  const calls: unknown[][] = []
  logger[level] = (...args: unknown[]) => {
    calls.push(args)
    return original.apply(logger, args)
  }
  return {
    calls,
    logged(message, fields = {}) {
      return calls.some(([obj, msg]) => {
        const text = typeof obj === 'string' ? obj : msg
        const record = (typeof obj === 'object' && obj !== null ? obj : {}) as Record<string, unknown>
        return text === message && Object.entries(fields).every(([key, value]) => record[key] === value)
      })
    },
    text: () => asText(calls),
    clear() {
      calls.length = 0
    },
    restore() {
      logger[level] = original
    },
  }
}

/** Runs `fn` and returns, as JSON text, what was logged at `level` meanwhile. */
export async function loggedDuring(
  payload: Payload,
  fn: () => Promise<void>,
  level: LogLevel = 'error',
): Promise<string> {
  const capture = captureLogs(payload, level)
  try {
    await fn()
  } finally {
    capture.restore()
  }
  return capture.text()
}
