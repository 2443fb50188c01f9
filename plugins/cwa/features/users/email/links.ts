import type { PayloadRequest } from 'payload'
import type { ResolvedUserOptions } from '../options.js'

/** Values filled into a link template; each is URL-encoded. */
export interface LinkParams {
  username?: string
  token?: string
  new_email?: string
}

export type LinkTemplate = { ok: true; template: string; origin: string | null } | { ok: false; reason: string }

/**
 * scheme://host[:port] of an Origin or Referer value: lower-case host,
 * default port dropped, no path; null for anything but http and https
 * (including the `null` origin of sandboxed or privacy-sensitive requests).
 */
export function normalizeOrigin(value: string | null | undefined): string | null {
  if (!value) return null
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  return url.origin
}

/** Whether an origin matches one of the allowed patterns (regexes anchored to the whole origin, case-insensitive). */
export function isAllowedOrigin(origin: string, patterns: string[]): boolean {
  return patterns.some((pattern) => new RegExp(`^(?:${pattern})$`, 'i').test(origin))
}

/**
 * The origin of the links of this request (contract, "Email links" 1): the
 * Origin header, or the Referer's origin when there is no Origin header,
 * when it matches an allowed pattern; else the configured default; else null.
 */
export function linkOrigin(headers: Headers, links: ResolvedUserOptions['emailLinks']): string | null {
  const origin = headers.get('origin')
  const candidate = origin !== null ? normalizeOrigin(origin) : normalizeOrigin(headers.get('referer'))
  if (candidate && isAllowedOrigin(candidate, links.allowedOrigins)) return candidate
  return normalizeOrigin(links.defaultOrigin)
}

/** A requested redirect path is usable when it starts with a single `/` and holds no `//`, backslash, whitespace or control character. */
export function isSafeRedirectPath(path: string): boolean {
  // eslint-disable-next-line no-control-regex
  return path.startsWith('/') && !path.includes('//') && !/[\\\s\u0000-\u001f\u007f-\u009f]/.test(path)
}

const isFullUrl = (value: string) => /^https?:\/\//i.test(value)

const PLACEHOLDER = /\{\{\s*(username|token|new_email)\s*\}\}/g

/**
 * Chooses the link of one email (contract, "Email links" 1 and 2): the path
 * named by the `redirectPathQuery` query parameter when it is safe, else
 * `defaultRedirectPath`; a full-URL default is used as is, anything else
 * needs an origin. `ok: false` is a refusal: no email may be sent.
 */
export function linkTemplate(
  req: Pick<PayloadRequest, 'headers' | 'searchParams'>,
  links: ResolvedUserOptions['emailLinks'],
  email: { defaultRedirectPath: string; redirectPathQuery: string | null },
): LinkTemplate {
  const origin = linkOrigin(req.headers, links)
  const requested = email.redirectPathQuery ? req.searchParams?.get(email.redirectPathQuery) : null
  // Judged as it will be sent: placeholders become URL-encoded values (so `{{ token }}` may hold spaces).
  if (origin && requested && isSafeRedirectPath(requested.replace(PLACEHOLDER, 'x')))
    return { ok: true, template: `${origin}${requested}`, origin }
  if (isFullUrl(email.defaultRedirectPath)) return { ok: true, template: email.defaultRedirectPath, origin }
  if (!origin)
    return {
      ok: false,
      reason: 'No allowed Origin or Referer and no emailLinks.defaultOrigin: the email link cannot be built.',
    }
  if (!email.defaultRedirectPath.startsWith('/'))
    return { ok: false, reason: 'The redirect path of the email link must start with /.' }
  return { ok: true, template: `${origin}${email.defaultRedirectPath}`, origin }
}

/** Fills `{{ username }}`, `{{ token }}` and `{{ new_email }}` (URL-encoded) into a link template. */
export function fillLink(template: string, params: LinkParams): string {
  return template.replace(PLACEHOLDER, (_all, name: keyof LinkParams) => encodeURIComponent(params[name] ?? ''))
}
