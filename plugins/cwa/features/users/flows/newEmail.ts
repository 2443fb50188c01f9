import { ValidationError } from 'payload'
import { inTransaction } from '../../../core/utils/sql.js'
import type { HydraContext } from '../../../hydra/context.js'
import { HttpError, notFound, violation, ViolationError } from '../../../hydra/errors.js'
import type { EndpointResult } from '../../../hydra/endpoint.js'
import { getOptions } from '../../../core/registry.js'
import {
  findFlowUser,
  type FlowUser,
  flowStatus,
  type MailScope,
  type SendMode,
  type SendOutcome,
  sendTokenEmail,
} from '../email/index.js'
import { CONFIRMING_EMAIL, normalizeEmail } from '../hooks/changes.js'
import { nothingToResend } from '../email/responses.js'
import { consumeToken, discardTokens } from '../tokens/index.js'

/**
 * The email change flow (contract, "User account" and "Email flows"). The
 * pending address (`newEmailAddress`) is set by a user write (PATCH, the
 * new_email_address form: see hooks/emailChange); the write's after-change
 * hook mails the confirmation link; the link's GET makes it the address.
 */

/**
 * Mails the confirmation link to the pending address. After a write
 * (`after-write`) a refused link is logged and the write stands; a
 * transport failure throws 503, undoing the write (nothing saved, the
 * previous link keeps working). The new token replaces the user's earlier one.
 */
export function sendEmailConfirmation(scope: MailScope, user: FlowUser, mode: SendMode): Promise<SendOutcome> {
  const pending = normalizeEmail(user.newEmailAddress)!
  const { newEmailConfirmation } = getOptions(scope.payload.config).user
  return sendTokenEmail(scope, {
    kind: 'new_email_confirmation',
    purpose: 'new_email',
    user,
    to: pending,
    email: newEmailConfirmation.email,
    validitySeconds: newEmailConfirmation.requestTimeoutSeconds,
    repeatSeconds: newEmailConfirmation.repeatTtlSeconds,
    data: pending,
    linkParams: { new_email: pending },
    mode,
  })
}

/** Ends the links of a cancelled (or replaced) change: they then return 404 (their sends still count for the repeat wait). */
export async function discardEmailConfirmation(scope: MailScope, userId: string): Promise<void> {
  await discardTokens(scope, { purpose: 'new_email', userId })
}

/**
 * GET /confirm-email/{username}/{emailAddress}/{token}: the pending address
 * becomes the account's address, verified. 404 for an unknown user, a bad,
 * used, replaced, expired or cancelled token, or an address that is not the
 * one pending (and the token was mailed for). 409 when another account
 * took the address meanwhile (nothing changes).
 */
export async function confirmEmail(
  ctx: HydraContext,
  username: string,
  emailAddress: string,
  token: string,
): Promise<EndpointResult> {
  const invalid = () => notFound('This email confirmation link is invalid, was cancelled or has expired.')
  const user = await findFlowUser(ctx, username)
  const requested = normalizeEmail(emailAddress)
  if (!user || !token || !requested || normalizeEmail(user.newEmailAddress) !== requested) throw invalid()
  await inTransaction(ctx.req, async () => {
    const used = await consumeToken(ctx, { purpose: 'new_email', userId: String(user.id), token })
    if (!used || normalizeEmail(used.data) !== requested) throw invalid()
    const taken = await ctx.payload.count({
      collection: 'users',
      where: { and: [{ email: { equals: requested } }, { id: { not_equals: user.id } }] },
      overrideAccess: true,
      req: ctx.req,
    })
    if (taken.totalDocs > 0) throw new HttpError(409, 'This email address is now used by another account.')
    await ctx.payload.update({
      collection: 'users',
      id: user.id,
      data: { email: requested, emailAddressVerified: true, newEmailAddress: null },
      overrideAccess: true,
      depth: 0,
      req: ctx.req,
      context: { [CONFIRMING_EMAIL]: true },
    })
  })
  return flowStatus('The new email address is confirmed.')
}

/**
 * GET /resend-verify-new-email/{username}: the confirmation link of the
 * pending change again (the earlier link stops working once it is sent).
 * 404 unknown user or nothing pending; 400 link refused; 429 repeat wait
 * (Retry-After); 503 not sent (the earlier link keeps working).
 */
export async function resendVerifyNewEmail(ctx: HydraContext, username: string): Promise<EndpointResult> {
  const user = await findFlowUser(ctx, username)
  if (!user) throw nothingToResend(ctx, 'No user is registered with this username.')
  if (!normalizeEmail(user.newEmailAddress))
    throw nothingToResend(ctx, 'This user has no pending email address change.')
  await sendEmailConfirmation(ctx, user, 'request')
  return flowStatus('A confirmation email has been sent to the new address.')
}

/**
 * Requests (or with null / '' cancels) an email change for a user, as the
 * caller: the same write as PATCH /users/{id} {newEmailAddress} (access,
 * validation, confirmation email). Called by the new_email_address form.
 * Throws a ViolationError (422) naming newEmailAddress, HttpError 503 when
 * the confirmation could not be sent.
 */
export async function requestEmailChange(
  ctx: HydraContext,
  userId: string,
  newEmailAddress: string | null,
): Promise<void> {
  try {
    await ctx.payload.update({
      collection: 'users',
      id: userId,
      data: { newEmailAddress: normalizeEmail(newEmailAddress) },
      overrideAccess: false,
      depth: 0,
      req: ctx.req,
    })
  } catch (error) {
    if (error instanceof ValidationError) {
      const errors = (error.data as { errors?: Array<{ message?: string }> }).errors ?? []
      throw new ViolationError(errors.map((e) => violation('newEmailAddress', e.message ?? 'This value is not valid.')))
    }
    throw error
  }
}
