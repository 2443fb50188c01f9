import type { HydraContext } from '../../../hydra/context.js'
import { badRequest, notFound } from '../../../hydra/errors.js'
import type { EndpointResult } from '../../../hydra/endpoint.js'
import { typicalSendMs } from '../email/mailer.js'
import { RefreshTokenStore } from '../../../session/refreshTokens.js'
import { findFlowUser, flowStatus, linkTemplate, noticeSent, sendTokenEmail, sendUserNotice } from '../email/index.js'
import { assertNotThrottled, forgetAccountFailures, tooManyRequests } from '../throttle.js'
import {
  consumeToken,
  executor,
  inTransaction,
  newToken,
  saveToken,
  unknownSubject,
  withSubjectLock,
} from '../tokens/index.js'

const SENT = 'If the account exists, a password reset email has been sent.'

/**
 * GET /password/reset/request/{username} (username or email address):
 * 200 sent, 404 unknown user, 400 link refused, 429 repeat wait running
 * (Retry-After), 503 email not sent (the previous link keeps working).
 *
 * With passwordReset.concealUnknownUsers an unknown identifier is answered
 * like a known one: the link is checked first (400 for both), its repeat
 * wait is kept under a hash of the identifier (429 for both), and the 200
 * takes about as long as a real send. Only a mail transport failure (503)
 * can still tell them apart.
 */
export async function requestPasswordReset(ctx: HydraContext, identifier: string): Promise<EndpointResult> {
  const options = ctx.options.user.passwordReset
  const link = linkTemplate(ctx.req, ctx.options.user.emailLinks, options.email)
  if (!link.ok) throw badRequest(link.reason)
  const user = await findFlowUser(ctx, identifier, { orEmail: true })
  if (!user) {
    if (!options.concealUnknownUsers) throw notFound('No user is registered with this username or email address.')
    return concealedRequest(ctx, identifier)
  }
  await sendTokenEmail(ctx, {
    kind: 'password_reset',
    purpose: 'password_reset',
    user,
    to: user.email,
    email: options.email,
    validitySeconds: options.requestTimeoutSeconds,
    repeatSeconds: options.repeatTtlSeconds,
    mode: 'request',
  })
  return flowStatus(SENT)
}

/** The answer to an unknown identifier when accounts are concealed: the same throttle, timing and body as a real send. */
async function concealedRequest(ctx: HydraContext, identifier: string): Promise<EndpointResult> {
  const { repeatTtlSeconds: repeatSeconds, requestTimeoutSeconds } = ctx.options.user.passwordReset
  const subject = unknownSubject(identifier)
  return withSubjectLock(
    ctx,
    { purpose: 'password_reset', subject },
    async () => {
      await assertNotThrottled(ctx, { purpose: 'password_reset', subject, repeatSeconds })
      await new Promise((resolve) => setTimeout(resolve, typicalSendMs() * (0.8 + Math.random() * 0.4)))
      // A placeholder holding only the repeat wait: no user, and a token nobody ever receives.
      await saveToken(ctx, {
        purpose: 'password_reset',
        userId: null,
        subject,
        token: newToken(),
        validitySeconds: requestTimeoutSeconds,
        repeatSeconds,
      })
      return flowStatus(SENT)
    },
    () => {
      throw tooManyRequests(repeatSeconds)
    },
  )
}

/**
 * Sets a new password from an emailed link (the password_reset form):
 * 404 for an unknown user or a bad, used, replaced or expired token. Using
 * the token and setting the password happen in one transaction (a refused
 * password leaves the link usable); a login lock is lifted. Then every refresh token of the user is
 * revoked (all sessions end: whoever held the old password is logged out)
 * and the password_changed notice is sent when enabled, unless the users
 * collection's hooks sent it already; its failure is logged, the new
 * password stands.
 */
export async function resetPassword(
  ctx: HydraContext,
  input: { username: string; token: string; plainPassword: string },
): Promise<void> {
  const user = await findFlowUser(ctx, input.username)
  const invalid = () => notFound('This password reset link is invalid or has expired.')
  if (!user || !input.token) throw invalid()
  await inTransaction(ctx.req, async () => {
    if (!(await consumeToken(ctx, { purpose: 'password_reset', userId: String(user.id), token: input.token })))
      throw invalid()
    // Proving control of the mailbox also lifts a lock from failed logins (maybe someone else's guessing).
    const data = { password: input.plainPassword, loginAttempts: 0, lockUntil: null }
    await ctx.payload.update({
      collection: 'users',
      id: user.id,
      data,
      overrideAccess: true,
      depth: 0,
      req: ctx.req,
    })
    // In the same transaction: the collection's own hooks may already hold these rows locked in it.
    const store = new RefreshTokenStore(ctx.payload, ctx.options.session.refreshTtl)
    const revoked = await store.revokeOthers(String(user.id), undefined, await executor(ctx))
    ctx.payload.logger.info({ userId: user.id, revoked }, 'Password reset: every session of the user was ended')
  })
  // The login throttle's count on the account goes with the lock.
  await forgetAccountFailures(ctx.payload, String((user as { username?: unknown }).username ?? input.username))
  if (noticeSent(ctx.req, 'passwordChanged', user.id)) return
  await sendUserNotice(ctx, 'passwordChanged', user).catch((error: unknown) => {
    ctx.payload.logger.error({ err: error, userId: user.id }, 'Password changed email could not be sent')
  })
}
