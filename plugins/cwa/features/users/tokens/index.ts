/**
 * Single-use tokens of the email flows, in the hidden `user_tokens`
 * collection (SHA-256 only; no API reaches it).
 *
 * - newToken(): 32 random bytes, base64url (goes into the link only).
 * - saveToken(scope, { purpose, userId, token, validitySeconds, data }):
 *   stores it AFTER its email was sent, replacing the user's older token of
 *   that purpose (sendTokenEmail does this for you); older rows sent within
 *   the repeat wait stay as spent rows (the send log of the repeat wait).
 * - consumeToken(scope, { purpose, userId, token }): uses it once (constant
 *   time comparison, expiry checked, row spent); returns { data } or null
 *   (unknown, used, replaced or expired: the flows answer 404).
 * - discardTokens: ends the links of a purpose (a cancelled email change:
 *   its link then returns 404); their sends still count for the repeat wait.
 * - secondsUntilRepeat(scope, { purpose, subject, repeatSeconds }) and
 *   assertNotThrottled (../throttle): the repeat wait (at most one extra
 *   send at once after the last link was used or discarded); subject is
 *   userSubject(userId).
 * - withSubjectLock(scope, { purpose, subject }, fn, busy): one sender at a
 *   time per user and purpose (a concurrent request gets `busy`).
 * - executor(scope): the SQL executor of the request's transaction (or the adapter's).
 * - inTransaction(req, fn): runs fn in the request's transaction (opened here unless one is running).
 *
 * `scope` is `{ payload, req? }`; with a `req` in a transaction the SQL runs
 * in it (the token commits or rolls back with the write).
 */
export { TOKEN_PURPOSES, type TokenPurpose, userTokensCollection } from './collection.js'
export {
  consumeToken,
  discardTokens,
  type Executor,
  executor,
  inTransaction,
  newToken,
  saveToken,
  secondsUntilRepeat,
  type TokenScope,
  unknownSubject,
  userSubject,
  withSubjectLock,
} from './store.js'
export { assertNotThrottled } from '../throttle.js'
