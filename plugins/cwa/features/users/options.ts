import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/**
 * Options of the users feature, declared once (core/defineOptions.ts): the
 * `users` resource (`users.allowRegistration`) and the user flows (the
 * contract's `user.*` keys in camelCase; [users and email](users-and-email.md)).
 */

/** The email of a flow: its link and its subject (the defaults differ per flow). */
const emailOf = (defaultRedirectPath: string, subject: string) =>
  group("The flow's email ([email links](users-and-email.md#email-links)).", {
    defaultRedirectPath: option.string({
      default: defaultRedirectPath,
      doc:
        'Front-end path of the emailed link; `{{ username }}`, `{{ token }}` (and `{{ new_email }}`) are filled in. ' +
        'A full URL is used as is.',
    }),
    redirectPathQuery: option<string | null>({
      type: 'string | null',
      default: null,
      doc:
        'Name of a query parameter that may carry another front-end path (checked: single leading /, no //, ' +
        'backslash, space or control character).',
    }),
    subject: option.string({ default: subject, doc: 'Its subject.' }),
  })

/** A notice email sent after a write ([emails sent after a write](users-and-email.md#emails-sent-after-a-write)). */
const noticeOf = (subject: string) =>
  group('A notice email sent after a write.', {
    enabled: option.boolean({ default: true, doc: 'Send it.' }),
    subject: option.string({ default: subject, doc: 'Its subject.' }),
  })

const flag = (doc: string) => option.boolean({ default: false, doc })
const seconds = (fallback: number, doc: string) => option.number({ default: fallback, doc })

export const usersOptions = defineOptions(
  {
    users: group('The users resource.', {
      allowRegistration: flag('Opens anonymous POST /users (registration).'),
    }),
    user: group('Email links, verification, password reset, email change and notice emails (contract: `user.*`).', {
      emailLinks: group('Where emailed links point ([email links](users-and-email.md#email-links)).', {
        defaultOrigin: option<string | null>({
          type: 'string | null',
          default: null,
          doc: "scheme://host[:port] used for links when the request's Origin/Referer is not allowed.",
        }),
        allowedOrigins: option<string[]>({
          type: 'string[]',
          default: [],
          doc: 'Regexes anchored to the whole origin, case-insensitive.',
          resolve: (given) => given ?? [],
        }),
      }),
      emailVerification: group('Email verification ([users](users-and-email.md#users)).', {
        defaultValue: flag('The initial `emailAddressVerified` of a registered user when verifyOnRegister is off.'),
        verifyOnRegister: flag('Registration sends a verification email; the new user starts unverified.'),
        verifyOnChange: flag("A user's own `emailAddress` write becomes a pending change, confirmed by email."),
        denyUnverifiedLogin: flag('Refuse the login of users whose address is not verified (401).'),
        repeatTtlSeconds: seconds(300, 'Seconds before another verification email may be requested.'),
        requestTimeoutSeconds: seconds(86400, 'How long a verification link works, in seconds.'),
        email: emailOf(
          '/verify-email/{{ username }}/{{ token }}',
          'Please verify your email address for {{ website_name }}',
        ),
      }),
      passwordReset: group('Password reset.', {
        repeatTtlSeconds: seconds(86400, 'Seconds before another reset email may be requested.'),
        requestTimeoutSeconds: seconds(3600, 'How long a reset link works, in seconds.'),
        concealUnknownUsers: flag(
          'Answer unknown users exactly like known ones (no 404), so accounts cannot be enumerated.',
        ),
        email: emailOf('/reset-password/{{ username }}/{{ token }}', 'Your password reset link for {{ website_name }}'),
      }),
      newEmailConfirmation: group('Confirmation of a new email address.', {
        repeatTtlSeconds: seconds(300, 'Seconds before another confirmation email may be requested.'),
        requestTimeoutSeconds: seconds(86400, 'How long a confirmation link works, in seconds.'),
        email: emailOf(
          '/confirm-new-email/{{ username }}/{{ new_email }}/{{ token }}',
          'Please confirm your new email address for {{ website_name }}',
        ),
      }),
      emails: group('The notice emails sent after a write.', {
        welcome: noticeOf('Welcome to {{ website_name }}'),
        userEnabled: noticeOf('Your {{ website_name }} account is enabled'),
        usernameChanged: noticeOf('Your {{ website_name }} username has changed'),
        passwordChanged: noticeOf('Your {{ website_name }} password has changed'),
      }),
    }),
  },
  (resolved) => {
    checkUserOptions(resolved.user)
    return resolved
  },
)

type Declared = typeof usersOptions
export type ResolvedUserOptions = OptionsResolved<Declared>['user']
export type ResolvedUserEmail = ResolvedUserOptions['passwordReset']['email']

declare module '../../core/options.js' {
  interface CwaPluginOptions extends OptionsInput<typeof usersOptions> {}
  interface ResolvedCwaOptions extends OptionsResolved<typeof usersOptions> {}
}

/**
 * Refuses, at start, options the email flows cannot work with (contract,
 * "Configuration options"): with verifyOnRegister or verifyOnChange the
 * verification email needs a link (defaultRedirectPath or
 * redirectPathQuery), and every allowedOrigins entry must be a valid regex.
 */
function checkUserOptions(options: ResolvedUserOptions): void {
  const { emailVerification, emailLinks } = options
  if (emailVerification.verifyOnRegister || emailVerification.verifyOnChange) {
    const { defaultRedirectPath, redirectPathQuery } = emailVerification.email
    if (!defaultRedirectPath && !redirectPathQuery) {
      throw new Error(
        'cwa options: user.emailVerification.verifyOnRegister / verifyOnChange need user.emailVerification.email.defaultRedirectPath or user.emailVerification.email.redirectPathQuery to be set (the verification email needs a link).',
      )
    }
  }
  for (const pattern of emailLinks.allowedOrigins) {
    try {
      new RegExp(pattern)
    } catch (error) {
      throw new Error(
        `cwa options: user.emailLinks.allowedOrigins holds an invalid regex ${JSON.stringify(pattern)}: ${(error as Error).message}`,
      )
    }
  }
}
