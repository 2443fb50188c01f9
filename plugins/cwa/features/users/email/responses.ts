import type { HydraContext } from '../../../hydra/context.js'
import type { EndpointResult } from '../../../hydra/endpoint.js'
import { type HttpError, notFound } from '../../../hydra/errors.js'

/**
 * The 200 answer of an email flow endpoint: a small Hydra Status in Hydra's
 * own context (no user data, so a concealed unknown user gets the very same
 * body); private and never cached, as the flow endpoints declare.
 */
export function flowStatus(description: string): EndpointResult {
  return {
    status: 200,
    output: { type: 'Status', context: 'hydra', data: { statusCode: 200, title: 'OK', description } },
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
