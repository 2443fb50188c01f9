import type { HydraContext } from '../../../hydra/context.js'
import { type HttpError, notFound } from '../../../hydra/errors.js'
import type { OperationResult } from '../../../hydra/operations.js'
import { PRIVATE_NO_STORE } from '../throttle.js'

/**
 * The 200 answer of an email flow endpoint: a small JSON-LD Hydra Status
 * (no user data, so a concealed unknown user gets the very same body),
 * private and never cached.
 */
export function flowStatus(description: string): OperationResult {
  return {
    status: 200,
    headers: { ...PRIVATE_NO_STORE },
    body: {
      '@context': 'http://www.w3.org/ns/hydra/context.jsonld',
      '@type': 'Status',
      statusCode: 200,
      title: 'OK',
      description,
    },
  }
}

/** The one 404 detail of the resend endpoints when accounts are concealed. */
export const NOTHING_TO_RESEND = 'There is no email to resend for this username.'

/**
 * The 404 of a resend endpoint (unknown user, or nothing to resend). With
 * passwordReset.concealUnknownUsers both get the same detail: a different
 * text for "already verified" or "nothing pending" would tell which
 * usernames exist. Without it, the specific reason helps the caller.
 */
export function nothingToResend(ctx: HydraContext, reason: string): HttpError {
  return notFound(ctx.options.user.passwordReset.concealUnknownUsers ? NOTHING_TO_RESEND : reason)
}
