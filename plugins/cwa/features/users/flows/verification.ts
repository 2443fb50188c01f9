import type { HydraContext } from '../../../hydra/context.js'
import { notFound } from '../../../hydra/errors.js'
import type { EndpointResult } from '../../../hydra/endpoint.js'
import { findFlowUser, type FlowUser, flowStatus, type MailScope, sendVerificationEmail } from '../email/index.js'
import { nothingToResend } from '../email/responses.js'
import { consumeToken, inTransaction } from '../tokens/index.js'
import { isTransportFailure } from './notices.js'

/**
 * GET /verify-email/{username}/{token}: marks the user's address verified.
 * 404 for an unknown user or a bad, used, replaced or expired token, and
 * for a link sent to an address the account no longer has (the token is
 * bound to the address it was mailed to). 200 with a Hydra Status body.
 * Using the token and marking the address happen in one transaction.
 */
export async function verifyEmail(ctx: HydraContext, username: string, token: string): Promise<EndpointResult> {
  const invalid = () => notFound('This verification link is invalid or has expired.')
  const user = await findFlowUser(ctx, username)
  if (!user || !token) throw invalid()
  // One transaction: a failed update leaves the link usable (the token is not spent without the address being verified).
  await inTransaction(ctx.req, async () => {
    const used = await consumeToken(ctx, { purpose: 'email_verification', userId: String(user.id), token })
    if (!used || (used.data !== null && used.data !== user.email.toLowerCase())) throw invalid()
    if (!user.emailAddressVerified) {
      await ctx.payload.update({
        collection: 'users',
        id: user.id,
        data: { emailAddressVerified: true },
        overrideAccess: true,
        depth: 0,
        req: ctx.req,
      })
    }
  })
  return flowStatus('The email address is verified.')
}

/**
 * GET /resend-verify-email/{username}: a new verification email for the
 * current address (the previous link stops working once it is sent).
 * 404 for an unknown user and for an address already verified (nothing to
 * verify); 400 link refused; 429 repeat wait (Retry-After); 503 not sent.
 */
export async function resendVerifyEmail(ctx: HydraContext, username: string): Promise<EndpointResult> {
  const user = await findFlowUser(ctx, username)
  if (!user) throw nothingToResend(ctx, 'No user is registered with this username.')
  if (user.emailAddressVerified) throw nothingToResend(ctx, 'The email address of this user is already verified.')
  await sendVerificationEmail(ctx, user, { mode: 'request' })
  return flowStatus('A verification email has been sent.')
}

/**
 * The verification email after a direct change of the address left it
 * unverified (the account holder's own write without verifyOnChange, or a
 * super admin's without vouching). Like the other emails after a write, the
 * write stands whatever happens: a refused link or a running repeat wait is
 * handled by the sender, a transport failure (only that) is logged here (the user can
 * ask again with /resend-verify-email). Not for the operator's scripts
 * (Local API, no HTTP request).
 */
export async function sendVerificationAfterChange(scope: MailScope, user: FlowUser): Promise<void> {
  if (!scope.req.headers?.has('host')) return
  try {
    await sendVerificationEmail(scope, user, { mode: 'after-write' })
  } catch (error) {
    if (!isTransportFailure(error)) throw error
    scope.payload.logger.error(
      { err: error, email: 'verification', userId: user.id },
      'Verification email after an address change could not be sent; the write stands',
    )
  }
}
