import type { PayloadRequest } from 'payload'
import { HttpError } from '../../../hydra/errors.js'
import { type FlowUser, type NoticeKind, noticeSent, sendUserNotice } from '../email/index.js'

/** What a saved user write changed that its owner is told about. */
export interface NoticeTriggers {
  created: boolean
  usernameChanged: boolean
  passwordChanged: boolean
  /** enabled went from false to true. */
  enabled: boolean
}

/**
 * The notice emails after a completed user write (contract, "Outbound
 * emails"): welcome on creation (carrying the verification link with
 * verifyOnRegister), user_enabled, username_changed, password_changed.
 * The write stands whatever happens here: a refused link is logged by the
 * sender, a transport failure (only that) is logged here. A notice already sent for
 * this request (by a flow) is not sent twice.
 */
export async function sendWriteNotices(req: PayloadRequest, user: FlowUser, triggers: NoticeTriggers): Promise<void> {
  const kinds: NoticeKind[] = []
  if (triggers.created) kinds.push('welcome')
  if (triggers.enabled) kinds.push('userEnabled')
  if (triggers.usernameChanged) kinds.push('usernameChanged')
  if (triggers.passwordChanged) kinds.push('passwordChanged')
  const scope = { payload: req.payload, req }
  for (const kind of kinds) {
    if (noticeSent(req, kind, user.id)) continue
    try {
      await sendUserNotice(scope, kind, user)
    } catch (error) {
      // Only a transport failure (503) is the notice's own: anything else (a database error in the write's
      // transaction) must fail the write rather than be hidden here.
      if (!isTransportFailure(error)) throw error
      req.payload.logger.error(
        { err: error, email: kind, userId: user.id },
        'User notice email could not be sent; the write stands',
      )
    }
  }
}

/** The 503 a sender throws when the mail transport failed (see emailNotSent). */
export function isTransportFailure(error: unknown): boolean {
  return error instanceof HttpError && error.status === 503
}
