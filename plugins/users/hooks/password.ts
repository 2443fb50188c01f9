import type { CollectionAfterChangeHook, CollectionBeforeChangeHook, PayloadRequest } from 'payload'
import type { ResolvedCwaOptions } from '../../cwa/options'
import { readCookies } from '../../../src/session/cookies'
import { type Executor, RefreshTokenStore } from '../../../src/session/refreshTokens'
import { noteUserChange } from './changes'

/** Notes a password change while the plain password is still in the data (Payload hashes and drops it next). */
export const notePasswordChange: CollectionBeforeChangeHook = ({ data, operation, originalDoc, req }) => {
  if (operation === 'update' && originalDoc?.id && typeof data?.password === 'string' && data.password !== '') {
    noteUserChange(req, originalDoc.id, { passwordChanged: true })
  }
  return data
}

/** The SQL executor of the request's open transaction, if any (so the revocation commits or rolls back with the write). */
async function transactionDb(req: PayloadRequest): Promise<Executor | undefined> {
  const id = await req.transactionID
  if (id === undefined || id === null) return undefined
  const adapter = req.payload.db as unknown as { sessions?: Record<string, { db: Executor }> }
  return adapter.sessions?.[String(id)]?.db
}

/**
 * A changed password ends the user's other sessions: their refresh tokens
 * are revoked, except the one of the session making the change (when the
 * user changes their own password). Their JWTs expire on their own
 * (tokenTtl, 3600 s by default) and cannot be refreshed.
 */
export function revokeOtherSessions(options: ResolvedCwaOptions): (args: Parameters<CollectionAfterChangeHook>[0], passwordChanged: boolean) => Promise<void> {
  return async ({ doc, req }, passwordChanged) => {
    if (!passwordChanged) return
    const presented = readCookies(req.headers.get('cookie')).get(options.session.refreshCookieName)
    const store = new RefreshTokenStore(req.payload, options.session.refreshTtl)
    const revoked = await store.revokeOthers(String(doc.id), presented, await transactionDb(req))
    req.payload.logger.info({ userId: doc.id, revoked }, 'Password changed: the other sessions of the user were ended')
  }
}
