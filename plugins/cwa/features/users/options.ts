import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, ResolvedCwaOptions } from '../../core/options.js'

/**
 * Options of the users feature and their defaults, in one place: the
 * `users` resource (`users.allowRegistration`) and the user flows (the
 * contract's `user.*` keys in camelCase).
 */

export interface UserEmailOptions {
  /** Front-end path of the emailed link; `{{ username }}`, `{{ token }}` (and `{{ new_email }}`) are filled in. A full URL is used as is. */
  defaultRedirectPath?: string
  /** Name of a query parameter that may carry another front-end path (checked: single leading /, no //, backslash, space or control character). */
  redirectPathQuery?: string | null
  subject?: string
}

export interface UserOptions {
  emailLinks?: {
    /** scheme://host[:port] used for links when the request's Origin/Referer is not allowed. */
    defaultOrigin?: string | null
    /** Regexes anchored to the whole origin, case-insensitive. */
    allowedOrigins?: string[]
  }
  emailVerification?: {
    defaultValue?: boolean
    verifyOnRegister?: boolean
    verifyOnChange?: boolean
    denyUnverifiedLogin?: boolean
    repeatTtlSeconds?: number
    /** How long a verification link works (default 86400 s). */
    requestTimeoutSeconds?: number
    email?: UserEmailOptions
  }
  passwordReset?: {
    repeatTtlSeconds?: number
    requestTimeoutSeconds?: number
    /** Answer unknown users exactly like known ones (no 404), so accounts cannot be enumerated. Default false. */
    concealUnknownUsers?: boolean
    email?: UserEmailOptions
  }
  newEmailConfirmation?: {
    repeatTtlSeconds?: number
    requestTimeoutSeconds?: number
    email?: UserEmailOptions
  }
  emails?: Partial<
    Record<'welcome' | 'userEnabled' | 'usernameChanged' | 'passwordChanged', { enabled?: boolean; subject?: string }>
  >
}

type Required2<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends object ? Required2<NonNullable<T[K]>> : NonNullable<T[K]>
}
export interface ResolvedUserEmail {
  defaultRedirectPath: string
  redirectPathQuery: string | null
  subject: string
}

export interface ResolvedUserOptions {
  emailLinks: { defaultOrigin: string | null; allowedOrigins: string[] }
  emailVerification: {
    defaultValue: boolean
    verifyOnRegister: boolean
    verifyOnChange: boolean
    denyUnverifiedLogin: boolean
    repeatTtlSeconds: number
    requestTimeoutSeconds: number
    email: ResolvedUserEmail
  }
  passwordReset: {
    repeatTtlSeconds: number
    requestTimeoutSeconds: number
    concealUnknownUsers: boolean
    email: ResolvedUserEmail
  }
  newEmailConfirmation: { repeatTtlSeconds: number; requestTimeoutSeconds: number; email: ResolvedUserEmail }
  emails: Required2<
    Record<'welcome' | 'userEnabled' | 'usernameChanged' | 'passwordChanged', { enabled: boolean; subject: string }>
  >
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    users?: {
      /** Opens anonymous POST /users (registration). Default false. */
      allowRegistration?: boolean
    }
    /** Email links, verification, password reset, email change and notice emails (contract: `user.*`). */
    user?: UserOptions
  }
  interface ResolvedCwaOptions {
    users: { allowRegistration: boolean }
    user: ResolvedUserOptions
  }
}

const emailKeys = { defaultRedirectPath: true, redirectPathQuery: true, subject: true } as const
const noticeKeys = { enabled: true, subject: true } as const

export const usersOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'users' | 'user'>> = {
  users: { allowRegistration: true },
  user: {
    emailLinks: { defaultOrigin: true, allowedOrigins: true },
    emailVerification: {
      defaultValue: true,
      verifyOnRegister: true,
      verifyOnChange: true,
      denyUnverifiedLogin: true,
      repeatTtlSeconds: true,
      requestTimeoutSeconds: true,
      email: emailKeys,
    },
    passwordReset: { repeatTtlSeconds: true, requestTimeoutSeconds: true, concealUnknownUsers: true, email: emailKeys },
    newEmailConfirmation: { repeatTtlSeconds: true, requestTimeoutSeconds: true, email: emailKeys },
    emails: { welcome: noticeKeys, userEnabled: noticeKeys, usernameChanged: noticeKeys, passwordChanged: noticeKeys },
  },
}

export function resolveUsersOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'users' | 'user'> {
  return {
    users: { allowRegistration: options.users?.allowRegistration ?? false },
    user: resolveUserOptions(options.user),
  }
}

const email = (
  given: UserEmailOptions | undefined,
  defaultRedirectPath: string,
  subject: string,
): ResolvedUserEmail => ({
  defaultRedirectPath: given?.defaultRedirectPath ?? defaultRedirectPath,
  redirectPathQuery: given?.redirectPathQuery ?? null,
  subject: given?.subject ?? subject,
})

const notice = (given: { enabled?: boolean; subject?: string } | undefined, subject: string) => ({
  enabled: given?.enabled ?? true,
  subject: given?.subject ?? subject,
})

export function resolveUserOptions(user: UserOptions = {}): ResolvedUserOptions {
  return checkUserOptions(resolveDefaults(user))
}

function resolveDefaults(user: UserOptions): ResolvedUserOptions {
  return {
    emailLinks: {
      defaultOrigin: user.emailLinks?.defaultOrigin ?? null,
      allowedOrigins: user.emailLinks?.allowedOrigins ?? [],
    },
    emailVerification: {
      defaultValue: user.emailVerification?.defaultValue ?? false,
      verifyOnRegister: user.emailVerification?.verifyOnRegister ?? false,
      verifyOnChange: user.emailVerification?.verifyOnChange ?? false,
      denyUnverifiedLogin: user.emailVerification?.denyUnverifiedLogin ?? false,
      repeatTtlSeconds: user.emailVerification?.repeatTtlSeconds ?? 300,
      requestTimeoutSeconds: user.emailVerification?.requestTimeoutSeconds ?? 86400,
      email: email(
        user.emailVerification?.email,
        '/verify-email/{{ username }}/{{ token }}',
        'Please verify your email address for {{ website_name }}',
      ),
    },
    passwordReset: {
      repeatTtlSeconds: user.passwordReset?.repeatTtlSeconds ?? 86400,
      requestTimeoutSeconds: user.passwordReset?.requestTimeoutSeconds ?? 3600,
      concealUnknownUsers: user.passwordReset?.concealUnknownUsers ?? false,
      email: email(
        user.passwordReset?.email,
        '/reset-password/{{ username }}/{{ token }}',
        'Your password reset link for {{ website_name }}',
      ),
    },
    newEmailConfirmation: {
      repeatTtlSeconds: user.newEmailConfirmation?.repeatTtlSeconds ?? 300,
      requestTimeoutSeconds: user.newEmailConfirmation?.requestTimeoutSeconds ?? 86400,
      email: email(
        user.newEmailConfirmation?.email,
        '/confirm-new-email/{{ username }}/{{ new_email }}/{{ token }}',
        'Please confirm your new email address for {{ website_name }}',
      ),
    },
    emails: {
      welcome: notice(user.emails?.welcome, 'Welcome to {{ website_name }}'),
      userEnabled: notice(user.emails?.userEnabled, 'Your {{ website_name }} account is enabled'),
      usernameChanged: notice(user.emails?.usernameChanged, 'Your {{ website_name }} username has changed'),
      passwordChanged: notice(user.emails?.passwordChanged, 'Your {{ website_name }} password has changed'),
    },
  }
}

/**
 * Refuses, at start, options the email flows cannot work with (contract,
 * "Configuration options"): with verifyOnRegister or verifyOnChange the
 * verification email needs a link (defaultRedirectPath or
 * redirectPathQuery), and every allowedOrigins entry must be a valid regex.
 */
function checkUserOptions(options: ResolvedUserOptions): ResolvedUserOptions {
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
  return options
}
