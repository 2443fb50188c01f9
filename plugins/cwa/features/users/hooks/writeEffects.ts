import type { CollectionAfterChangeHook, PayloadRequest } from 'payload'
import { getOptions } from '../../../core/registry.js'
import type { ResolvedCwaOptions } from '../../../core/options.js'
import type { FlowUser } from '../email/index.js'
import { discardEmailConfirmation, sendEmailConfirmation } from '../flows/newEmail.js'
import { sendWriteNotices } from '../flows/notices.js'
import { sendVerificationAfterChange } from '../flows/verification.js'
import { takeUserChange } from './changes.js'
import { revokeOtherSessions } from './password.js'

/**
 * Whether a new account gets the welcome email: when it was created over
 * HTTP (registration, a super admin through the API or the admin panel;
 * those requests carry a Host header), not by the operator's command or a
 * script (Local API). With verifyOnRegister the welcome carries the
 * verification link, so an account created verified gets none.
 */
function welcomes(req: PayloadRequest, user: FlowUser): boolean {
  if (!req.headers?.has('host')) return false
  const { verifyOnRegister } = getOptions(req.payload.config).user.emailVerification
  return !(verifyOnRegister && user.emailAddressVerified === true)
}

/**
 * What a saved user write sets off, still inside the write's transaction:
 * - a password change ends the user's other sessions;
 * - a cancelled or replaced pending email change loses its link (404);
 * - a requested email change mails its confirmation link; a send failure
 *   undoes the whole write (503: nothing saved, the earlier link keeps
 *   working), a refused link is logged and the write stands;
 * - an address changed directly and left unverified gets a verification
 *   email (its failure is logged, the write stands);
 * - the notice emails (their failures are logged, the write stands): see
 *   flows/notices; welcome only as `welcomes` says.
 */
export function userWriteEffects(options: ResolvedCwaOptions): CollectionAfterChangeHook {
  const revokeOthers = revokeOtherSessions(options)
  return async (args) => {
    const { doc, operation, previousDoc, req } = args
    const change = operation === 'update' ? takeUserChange(req, doc.id) : {}
    // Payload types a hook's doc as any: this one is a saved user, whose fields FlowUser names.
    const user: FlowUser & { enabled?: boolean | null } = doc
    const scope = { payload: req.payload, req }
    await revokeOthers(args, Boolean(change.passwordChanged))
    if (change.emailChangeCancelled) await discardEmailConfirmation(scope, String(doc.id))
    if (change.emailChangeRequested) await sendEmailConfirmation(scope, user, 'after-write')
    if (change.addressToVerify) await sendVerificationAfterChange(scope, user)
    await sendWriteNotices(req, user, {
      created: operation === 'create' && welcomes(req, user),
      usernameChanged: operation === 'update' && previousDoc?.username !== doc.username,
      passwordChanged: Boolean(change.passwordChanged),
      enabled: operation === 'update' && previousDoc?.enabled === false && doc.enabled === true,
    })
    return doc
  }
}
