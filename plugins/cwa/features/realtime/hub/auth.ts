import type { IncomingMessage } from 'node:http'
import { type JWTPayload, jwtVerify } from 'jose'
import { readCookies } from '../../../session/index.js'

/** The `mercure` claim of a verified JWT: the topic selectors it may publish to and receive private updates of. */
export interface HubClaims {
  publish: string[]
  subscribe: string[]
  /** The JWT's subject (`sub`): the user a subscriber JWT was issued to, if any. */
  subject: string | null
  /** Every claim of the JWT (the embedded hub checks the session a subscriber JWT names). */
  payload: JWTPayload
}

const selectors = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []

/** The claims of an HS256 JWT signed with `secret`; null when it does not verify (bad signature, expired, malformed). */
export async function verifyClaims(token: string, secret: string): Promise<HubClaims | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] })
    const mercure = (typeof payload.mercure === 'object' && payload.mercure !== null ? payload.mercure : {}) as {
      publish?: unknown
      subscribe?: unknown
    }
    return {
      publish: selectors(mercure.publish),
      subscribe: selectors(mercure.subscribe),
      subject: typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null,
      payload,
    }
  } catch {
    return null
  }
}

/** The `Authorization: Bearer` token of a request. */
export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null
}

/**
 * A subscriber's JWT: `Authorization: Bearer`, else the subscriber cookie
 * (what a browser's EventSource sends), else the `authorization` query
 * parameter the protocol allows for clients that can set neither.
 */
export function subscriberToken(req: IncomingMessage, url: URL, cookieName: string): string | null {
  return bearerToken(req) ?? readCookies(req.headers.cookie).get(cookieName) ?? url.searchParams.get('authorization')
}
