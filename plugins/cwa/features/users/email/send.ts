import type { Payload, PayloadRequest } from 'payload'
import { getOptions } from '../../../core/registry.js'
import { badRequest } from '../../../hydra/errors.js'
import { MailTransportError, sendMail } from './mailer.js'
import type { ResolvedUserEmail } from '../options.js'
import { emailNotSent, tooManyRequests } from '../throttle.js'
import type { TokenPurpose } from '../tokens/collection.js'
import { newToken, saveToken, secondsUntilRepeat, userSubject, withSubjectLock } from '../tokens/store.js'
import { fillLink, type LinkParams, linkTemplate } from './links.js'
import { fillSubject, renderEmail, type UserEmailKind } from './templates.js'

/**
 * Where an email is sent from: the Payload instance and the request that
 * caused it (its Origin/Referer headers and query parameters choose the
 * link; passing it shares its transaction). A HydraContext is one; inside a
 * collection hook pass `{ payload: req.payload, req }`.
 */
export interface MailScope {
  payload: Payload
  req: PayloadRequest
}

/** The fields of a user the emails need (a Payload user document has them). */
export interface FlowUser {
  id: string | number
  username: string
  email: string
  emailAddressVerified?: boolean | null
  newEmailAddress?: string | null
}

/**
 * How a refusal is handled. `request`: the email IS the request (reset
 * request, resends): a refused link is a 400, a running repeat wait a 429.
 * `after-write`: the email follows a completed write (registration, account
 * enabled, email change): a refused link is logged at error level and
 * nothing is sent, a running repeat wait sends nothing; the write stands.
 * In both modes a transport failure throws 503 (HttpError) with nothing saved.
 */
export type SendMode = 'request' | 'after-write'
export type SendOutcome = 'sent' | 'refused' | 'throttled' | 'disabled'

export interface TokenEmail {
  kind: Extract<UserEmailKind, 'welcome' | 'verification' | 'new_email_confirmation' | 'password_reset'>
  purpose: TokenPurpose
  user: FlowUser
  /** Recipient: the current address, or the pending new one for a confirmation. */
  to: string
  /** The flow's link options (defaultRedirectPath, redirectPathQuery) and subject. */
  email: ResolvedUserEmail
  /** Overrides email.subject (the welcome email carrying a verification link). */
  subject?: string
  validitySeconds: number
  repeatSeconds: number
  /** Stored with the token and handed back by consumeToken (e.g. the address the link confirms). */
  data?: string | null
  /** Extra link placeholders (`new_email`); username and token are filled in. */
  linkParams?: Omit<LinkParams, 'username' | 'token'>
  mode: SendMode
}

function logRefusal(scope: MailScope, kind: UserEmailKind, user: FlowUser, reason: string): void {
  scope.payload.logger.error({ email: kind, userId: user.id, reason }, 'Email link refused: the email was not sent')
}

function websiteName(scope: MailScope): string {
  return getOptions(scope.payload.config).websiteName
}

async function deliver(
  scope: MailScope,
  to: string,
  rendered: { subject: string; html: string; text: string },
): Promise<void> {
  try {
    await sendMail(scope.payload, { to, ...rendered })
  } catch (error) {
    if (error instanceof MailTransportError) throw emailNotSent()
    throw error
  }
}

/**
 * Sends an email carrying a single-use token link, in this order: link
 * (refused: 400 or logged), repeat wait (429 or skipped), send (503 on
 * transport failure, nothing saved), then the token is stored, replacing
 * the user's previous one of that purpose. So a failed send leaves the
 * previous link working, and a throttled or refused request changes nothing.
 * One sender at a time per user and purpose (withSubjectLock): concurrent
 * requests cannot both pass the repeat wait.
 */
export async function sendTokenEmail(scope: MailScope, message: TokenEmail): Promise<SendOutcome> {
  const { user, mode } = message
  const options = getOptions(scope.payload.config).user
  const link = linkTemplate(scope.req, options.emailLinks, message.email)
  if (!link.ok) {
    if (mode === 'request') throw badRequest(link.reason)
    logRefusal(scope, message.kind, user, link.reason)
    return 'refused'
  }
  const subject = userSubject(String(user.id))
  const throttled = (wait: number): SendOutcome => {
    if (mode === 'request') throw tooManyRequests(wait)
    scope.payload.logger.info(
      { email: message.kind, userId: user.id, retryAfter: wait },
      'Email not sent: its repeat wait is running',
    )
    return 'throttled'
  }
  return withSubjectLock(
    scope,
    { purpose: message.purpose, subject },
    async () => {
      const wait = await secondsUntilRepeat(scope, {
        purpose: message.purpose,
        subject,
        repeatSeconds: message.repeatSeconds,
      })
      if (wait > 0) return throttled(wait)
      const token = newToken()
      const name = websiteName(scope)
      const rendered = renderEmail(message.kind, fillSubject(message.subject ?? message.email.subject, name), {
        websiteName: name,
        username: user.username,
        link: fillLink(link.template, { ...message.linkParams, username: user.username, token }),
        newEmail: message.linkParams?.new_email,
        validitySeconds: message.validitySeconds,
      })
      await deliver(scope, message.to, rendered)
      await saveToken(scope, {
        purpose: message.purpose,
        userId: String(user.id),
        token,
        validitySeconds: message.validitySeconds,
        repeatSeconds: message.repeatSeconds,
        data: message.data ?? null,
      })
      return 'sent' as const
    },
    // Another request is sending this very email right now: its repeat wait is about to start.
    () => throttled(message.repeatSeconds),
  )
}

/**
 * The verification email for the user's current address (its token is
 * bound to that address: a link sent before an address change verifies
 * nothing). `welcome: true` sends it as the welcome email (after
 * registration with verifyOnRegister; the welcome subject is used when the
 * welcome email is enabled).
 */
export async function sendVerificationEmail(
  scope: MailScope,
  user: FlowUser,
  { mode, welcome = false }: { mode: SendMode; welcome?: boolean },
): Promise<SendOutcome> {
  const { emailVerification, emails } = getOptions(scope.payload.config).user
  const asWelcome = welcome && emails.welcome.enabled
  return sendTokenEmail(scope, {
    kind: asWelcome ? 'welcome' : 'verification',
    purpose: 'email_verification',
    user,
    to: user.email,
    email: emailVerification.email,
    subject: asWelcome ? emails.welcome.subject : undefined,
    validitySeconds: emailVerification.requestTimeoutSeconds,
    repeatSeconds: emailVerification.repeatTtlSeconds,
    data: user.email.toLowerCase(),
    mode,
  })
}

export type NoticeKind = 'welcome' | 'userEnabled' | 'usernameChanged' | 'passwordChanged'

const NOTICE_TEMPLATES: Record<NoticeKind, UserEmailKind> = {
  welcome: 'welcome',
  userEnabled: 'user_enabled',
  usernameChanged: 'username_changed',
  passwordChanged: 'password_changed',
}

/**
 * Links of the notices: user_enabled links to the site (its origin) and is
 * refused without one (contract, "Email links" 3); a plain welcome links to
 * the site when an origin is known and goes out without the link otherwise
 * (only the welcome carrying a verification link is refused);
 * username_changed and password_changed carry none.
 */
const NOTICE_LINKS: Partial<Record<NoticeKind, 'required' | 'optional'>> = {
  userEnabled: 'required',
  welcome: 'optional',
}

/**
 * A notice email after a completed write (`emails.<kind>.enabled` decides):
 * welcome (with verifyOnRegister it carries the verification link: see
 * sendVerificationEmail; otherwise a link to the site when an origin is
 * known), user_enabled (a link to the site's origin, refused without one),
 * username_changed and password_changed (no links). A refused link is
 * logged at error level and nothing is sent; a transport failure throws 503
 * (HttpError): catch it when the write must stand.
 */
export async function sendUserNotice(scope: MailScope, kind: NoticeKind, user: FlowUser): Promise<SendOutcome> {
  const options = getOptions(scope.payload.config).user
  if (kind === 'welcome' && options.emailVerification.verifyOnRegister)
    return sendVerificationEmail(scope, user, { mode: 'after-write', welcome: true })
  const notice = options.emails[kind]
  if (!notice.enabled) return 'disabled'
  let link: string | null = null
  const linking = NOTICE_LINKS[kind]
  if (linking) {
    const template = linkTemplate(scope.req, options.emailLinks, { defaultRedirectPath: '/', redirectPathQuery: null })
    if (template.ok) link = template.template
    else if (linking === 'required') {
      logRefusal(scope, NOTICE_TEMPLATES[kind], user, template.reason)
      return 'refused'
    }
  }
  const name = websiteName(scope)
  await deliver(
    scope,
    user.email,
    renderEmail(NOTICE_TEMPLATES[kind], fillSubject(notice.subject, name), {
      websiteName: name,
      username: user.username,
      link,
    }),
  )
  noteNotice(scope.req, kind, user.id)
  return 'sent'
}

const NOTICES_SENT = 'cwaNoticesSent'

function noteNotice(req: PayloadRequest, kind: NoticeKind, userId: FlowUser['id']): void {
  const sent = ((req.context[NOTICES_SENT] as string[] | undefined) ??= [])
  sent.push(`${kind}:${userId}`)
}

/** Whether this request already sent that notice to the user (a flow and a collection hook must not both send it). */
export function noticeSent(req: PayloadRequest, kind: NoticeKind, userId: FlowUser['id']): boolean {
  return ((req.context[NOTICES_SENT] as string[] | undefined) ?? []).includes(`${kind}:${userId}`)
}
