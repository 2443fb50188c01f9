/**
 * The email infrastructure of the user flows, for every flow and hook.
 *
 * - sendTokenEmail(scope, message): an email carrying a single-use token
 *   link. Order: link (refused: 400 in `request` mode, logged at error level
 *   in `after-write` mode), repeat wait (429 / skipped), send (503 HttpError
 *   on transport failure, nothing saved), then the token is stored,
 *   replacing the user's previous one of that purpose (a failed send leaves
 *   the previous link working). The new-email flow uses it with purpose
 *   'new_email', kind 'new_email_confirmation', to = the pending address,
 *   data = the pending address, linkParams.new_email = the pending address.
 * - sendVerificationEmail(scope, user, { mode, welcome? }): the verification
 *   email for the current address (`welcome: true`: as the welcome email,
 *   after registration with verifyOnRegister).
 * - sendUserNotice(scope, kind, user): welcome / userEnabled /
 *   usernameChanged / passwordChanged after a completed write, respecting
 *   `emails.<kind>.enabled`; refusals are logged, transport failures throw 503.
 * - linkTemplate / fillLink / isSafeRedirectPath / normalizeOrigin: the link
 *   rules of the contract ("Email links"), for anything else that emails links.
 * - findFlowUser(scope, username, { orEmail }): the user a flow path names.
 *
 * `scope` is a HydraContext, or `{ payload: req.payload, req }` in a hook.
 */
export { findFlowUser } from './users.js'
export { flowStatus } from './responses.js'
export {
  fillLink,
  isAllowedOrigin,
  isSafeRedirectPath,
  type LinkParams,
  linkOrigin,
  linkTemplate,
  normalizeOrigin,
} from './links.js'
export {
  type FlowUser,
  type MailScope,
  type NoticeKind,
  noticeSent,
  type SendMode,
  type SendOutcome,
  sendTokenEmail,
  sendUserNotice,
  sendVerificationEmail,
  type TokenEmail,
} from './send.js'
export { escapeHtml, renderEmail, type UserEmailKind } from './templates.js'
export { emailNotSent, tooManyRequests } from '../throttle.js'
export { MailTransportError, sendMail } from './mailer.js'
