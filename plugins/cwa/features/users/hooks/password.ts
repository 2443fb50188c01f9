import type { CollectionAfterChangeHook, CollectionBeforeChangeHook } from 'payload'
import type { ResolvedCwaOptions } from '../../../core/options.js'
import { readCookies } from '../../../session/cookies.js'
import { RefreshTokenStore } from '../../../session/refreshTokens.js'
import { executor } from '../tokens/index.js'
import { noteUserChange } from './changes.js'

/** Notes a password change while the plain password is still in the data (Payload hashes and drops it next). */
export const notePasswordChange: CollectionBeforeChangeHook = ({ data, operation, originalDoc, req }) => {
  if (operation === 'update' && originalDoc?.id && typeof data?.password === 'string' && data.password !== '') {
    noteUserChange(req, originalDoc.id, { passwordChanged: true })
  }
  return data
}

/**
 * A changed password ends the user's other sessions: their refresh tokens
 * are revoked, except the one of the session making the change (when the
 * user changes their own password). Their JWTs expire on their own
 * (tokenTtl, 3600 s by default) and cannot be refreshed.
 */
export function revokeOtherSessions(
  options: ResolvedCwaOptions,
): (args: Parameters<CollectionAfterChangeHook>[0], passwordChanged: boolean) => Promise<void> {
  return async ({ doc, req }, passwordChanged) => {
    if (!passwordChanged) return
    const presented = readCookies(req.headers.get('cookie')).get(options.session.refreshCookieName)
    const store = new RefreshTokenStore(req.payload, options.session.refreshTtl)
    const revoked = await store.revokeOthers(String(doc.id), presented, await executor({ payload: req.payload, req }))
    req.payload.logger.info({ userId: doc.id, revoked }, 'Password changed: the other sessions of the user were ended')
  }
}
