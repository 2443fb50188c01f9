import type { Payload } from 'payload'
import { getOptions } from '../core/registry.js'

/** Minimal cookie reading and writing for the session cookies (no dependency needed). */
export function readCookies(header: string | undefined | null): Map<string, string> {
  const out = new Map<string, string>()
  if (!header) return out
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq <= 0) continue
    const name = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    try {
      out.set(name, decodeURIComponent(value))
    } catch {
      out.set(name, value)
    }
  }
  return out
}

export interface CookieOptions {
  maxAge: number
  path: string
  sameSite: 'lax' | 'strict' | 'none'
}

/** A session cookie: always HttpOnly and Secure. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const sameSite = options.sameSite.charAt(0).toUpperCase() + options.sameSite.slice(1)
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    `Expires=${new Date(Date.now() + options.maxAge * 1000).toUTCString()}`,
    'HttpOnly',
    'Secure',
    `SameSite=${sameSite}`,
  ].join('; ')
}

export function clearCookie(name: string, path: string, sameSite: CookieOptions['sameSite']): string {
  return serializeCookie(name, '', { maxAge: 0, path, sameSite }).replace(
    /Expires=[^;]+/,
    'Expires=Thu, 01 Jan 1970 00:00:00 GMT',
  )
}

/** The cookies that make a request signed in: the API's JWT and refresh cookies, Payload's token cookie. */
export function credentialCookieNames(payload: Payload): string[] {
  const { session } = getOptions(payload.config)
  return [session.cookieName, session.refreshCookieName, `${payload.config.cookiePrefix ?? 'payload'}-token`]
}
