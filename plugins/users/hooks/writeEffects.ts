import type { CollectionAfterChangeHook } from 'payload'
import type { ResolvedCwaOptions } from '../../cwa/options'
import { takeUserChange } from './changes'
import { revokeOtherSessions } from './password'

/**
 * What a saved user write sets off, still inside the write's transaction:
 * other sessions ended on a password change, the email change confirmation
 * (its send failure undoes the write: 503) and the notice emails (their
 * failures are logged, the write stands).
 */
export function userWriteEffects(options: ResolvedCwaOptions): CollectionAfterChangeHook {
  const revokeOthers = revokeOtherSessions(options)
  return async (args) => {
    const { doc, operation, req } = args
    const change = operation === 'update' ? takeUserChange(req, doc.id) : {}
    await revokeOthers(args, Boolean(change.passwordChanged))
    return doc
  }
}
