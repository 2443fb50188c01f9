import { HttpError } from '../../hydra/errors'
import type { TokenPurpose } from './tokens/collection'
import { secondsUntilRepeat, type TokenScope } from './tokens/store'

/** The 200, 429 and 503 answers of the email flows are private and never cached (contract, "Email flows"). */
export const PRIVATE_NO_STORE = { 'Cache-Control': 'private, no-store' } as const

/** 429 with Retry-After (seconds to wait): nothing was sent or changed. */
export function tooManyRequests(seconds: number): HttpError {
  return new HttpError(429, `Please wait ${seconds} seconds before asking for another email.`, { ...PRIVATE_NO_STORE, 'Retry-After': String(seconds) })
}

/** 503: the email could not be sent; nothing was saved and the previous link keeps working. */
export function emailNotSent(): HttpError {
  return new HttpError(503, 'The email could not be sent. Please try again later.', { ...PRIVATE_NO_STORE })
}

/**
 * Throws 429 while the repeat wait of the last email of that purpose to the
 * subject (a user id, or unknownSubject(identifier)) is running.
 */
export async function assertNotThrottled(scope: TokenScope, args: { purpose: TokenPurpose; subject: string; repeatSeconds: number }): Promise<void> {
  const wait = await secondsUntilRepeat(scope, args)
  if (wait > 0) throw tooManyRequests(wait)
}
