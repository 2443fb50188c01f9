import type { Payload } from 'payload'
import { getOptions } from '../../core/registry.js'
import { isAdmin } from '../../core/roles.js'
import type { HydraExtension, ResponseInfo } from '../../hydra/extension.js'
import {
  clearCookie,
  readCookies,
  serializeCookie,
  type SessionClaims,
  sessionClaimsOf,
  sessionServices,
  sessionUser,
} from '../../session/index.js'
import { subscriberJwt } from './jwt.js'
import { announcedHub } from './target.js'

/**
 * The session JWT a response sets (a login, a refresh, a transparent
 * refresh), verified: the subscriber cookie follows it. Null when the
 * response sets none (or clears it).
 */
async function sessionSetBy(payload: Payload, headers: Headers): Promise<SessionClaims | null> {
  const name = getOptions(payload.config).session.cookieName
  for (const cookie of headers.getSetCookie()) {
    const token = readCookies(cookie.split(';')[0]).get(name)
    if (!token) continue
    return (await sessionServices(payload)).jwt.verify(token).catch(() => null)
  }
  return null
}

/**
 * Announces the hub on JSON-LD responses (`Link: <MERCURE_PUBLIC_URL>;
 * rel="mercure"`, after the Hydra documentation link; the embedded hub's
 * URL when it runs) and gives signed-in admins the subscriber cookie that
 * lets the hub send them private (draft) updates: a JWT of
 * `mercure.subscriberTtl` seconds at most, never beyond the session JWT,
 * naming the session (`sub`, `ver`, `sid`) so that the embedded hub can stop
 * private delivery when the session ends. Every such response issues a fresh
 * one (a login's and a refresh's from the session they set); a logout clears it.
 */
async function announceHub(response: ResponseInfo): Promise<void> {
  const options = getOptions(response.payload.config)
  const mercure = options.mercure
  const hub = announcedHub(response.payload, response.headers)
  if (!hub) return
  response.headers.append('Link', `<${hub.publicUrl}>; rel="mercure"`)
  const cookie = { path: '/', sameSite: mercure.cookie.sameSite }
  const domain = mercure.cookie.domain ? `; Domain=${mercure.cookie.domain}` : ''
  if (response.path === '/logout') {
    response.headers.append('Set-Cookie', `${clearCookie(mercure.cookie.name, cookie.path, cookie.sameSite)}${domain}`)
    return
  }
  const session = (await sessionSetBy(response.payload, response.headers)) ?? sessionClaimsOf(response.user)
  if (!session || !isAdmin(sessionUser(session), options.roleHierarchy)) return
  const token = await subscriberJwt(hub.jwtSecret, mercure.subscriberTtl, {
    sub: session.sub,
    ver: Number(session.ver ?? 0),
    sid: session.sid,
    exp: session.exp,
  })
  const maxAge = Math.max(1, Math.min(mercure.subscriberTtl, session.exp - Math.floor(Date.now() / 1000)))
  response.headers.append(
    'Set-Cookie',
    `${serializeCookie(mercure.cookie.name, token, { ...cookie, maxAge })}${domain}`,
  )
}

export const realtimeExtension: HydraExtension = {
  name: 'realtime',
  decorateResponse: announceHub,
}
