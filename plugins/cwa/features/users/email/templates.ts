import { escapeMarkup } from '../../../core/utils/escape.js'
/**
 * The bodies of the user emails, as HTML and plain text. Every value is
 * HTML-escaped in the HTML part; subjects come from the options with
 * `{{ website_name }}` filled in.
 */

export type UserEmailKind =
  | 'welcome'
  | 'user_enabled'
  | 'username_changed'
  | 'password_changed'
  | 'verification'
  | 'new_email_confirmation'
  | 'password_reset'

export interface TemplateValues {
  websiteName: string
  username: string
  /** The front-end link; absent for the two emails without links (and a welcome without one). */
  link?: string | null
  /** The address being confirmed (new email confirmation). */
  newEmail?: string
  /** How long the link works, in seconds (shown as hours/minutes). */
  validitySeconds?: number
}

export interface RenderedEmail {
  subject: string
  html: string
  text: string
}

export const escapeHtml = escapeMarkup

/** `{{ website_name }}` in a configured subject. Subjects are headers, not HTML: no escaping, but no line breaks either. */
export function fillSubject(subject: string, websiteName: string): string {
  return subject.replace(/\{\{\s*website_name\s*\}\}/g, websiteName).replace(/[\r\n]+/g, ' ')
}

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`
  if (seconds % 60 === 0) return seconds === 60 ? '1 minute' : `${seconds / 60} minutes`
  return `${seconds} seconds`
}

/** The paragraphs of each email; `action` is the label of its link. */
function content(kind: UserEmailKind, v: TemplateValues): { lines: string[]; action?: string } {
  const expires = v.validitySeconds ? [`The link works for ${duration(v.validitySeconds)} and only once.`] : []
  switch (kind) {
    case 'welcome':
      // A welcome sent by the verification flow carries a token link (with its validity); a plain one links to the site.
      return v.validitySeconds
        ? {
            lines: [
              `Welcome to ${v.websiteName}, ${v.username}.`,
              'Please verify your email address to complete your registration.',
              ...expires,
            ],
            action: 'Verify my email address',
          }
        : {
            lines: [`Welcome to ${v.websiteName}, ${v.username}. Your account is ready.`],
            action: `Go to ${v.websiteName}`,
          }
    case 'user_enabled':
      return {
        lines: [`Hello ${v.username},`, `your ${v.websiteName} account has been enabled. You can now log in.`],
        action: `Go to ${v.websiteName}`,
      }
    case 'username_changed':
      return {
        lines: [
          `Hello ${v.username},`,
          `your ${v.websiteName} username has been changed to ${v.username}. If you did not ask for this change, contact the site's administrators.`,
        ],
      }
    case 'password_changed':
      return {
        lines: [
          `Hello ${v.username},`,
          `your ${v.websiteName} password has been changed. If you did not change it, contact the site's administrators.`,
        ],
      }
    case 'verification':
      return {
        lines: [`Hello ${v.username},`, `please verify your email address for ${v.websiteName}.`, ...expires],
        action: 'Verify my email address',
      }
    case 'new_email_confirmation':
      return {
        lines: [
          `Hello ${v.username},`,
          `please confirm ${v.newEmail ?? 'your new email address'} as the new email address of your ${v.websiteName} account.`,
          ...expires,
        ],
        action: 'Confirm my new email address',
      }
    case 'password_reset':
      return {
        lines: [
          `Hello ${v.username},`,
          `someone asked to reset the password of your ${v.websiteName} account. If it was you, choose a new password with this link; otherwise ignore this email.`,
          ...expires,
        ],
        action: 'Choose a new password',
      }
  }
}

/** Renders one email (subject given already filled). */
export function renderEmail(kind: UserEmailKind, subject: string, values: TemplateValues): RenderedEmail {
  const { lines, action } = content(kind, values)
  const link = action && values.link ? values.link : null
  const html = [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...(link ? [`<p><a href="${escapeHtml(link)}">${escapeHtml(action!)}</a></p>`] : []),
    '</body></html>',
  ].join('\n')
  const text = [...lines, ...(link ? ['', `${action}: ${link}`] : [])].join('\n') + '\n'
  return { subject, html, text }
}
