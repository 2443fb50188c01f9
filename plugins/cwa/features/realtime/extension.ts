import { getOptions } from '../../core/registry.js'
import { isAdmin } from '../../core/roles.js'
import type { HydraExtension, ResponseInfo } from '../../hydra/extension.js'
import { clearCookie, serializeCookie } from '../../session/index.js'
import { subscriberJwt } from './jwt.js'
import { announcedHub } from './target.js'

/** The subscriber cookie lives as long as a session JWT (contract: JWT lifetime 3600 s). */
const COOKIE_LIFETIME = 3600

/**
 * Announces the hub on JSON-LD responses (`Link: <MERCURE_PUBLIC_URL>;
 * rel="mercure"`, after the Hydra documentation link; the embedded hub's
 * URL when it runs) and gives signed-in admins the subscriber cookie that
 * lets the hub send them private (draft) updates; a logout clears it.
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
  } else if (response.user && isAdmin(response.user, options.roleHierarchy)) {
    const token = await subscriberJwt(hub.jwtSecret, COOKIE_LIFETIME)
    response.headers.append(
      'Set-Cookie',
      `${serializeCookie(mercure.cookie.name, token, { ...cookie, maxAge: COOKIE_LIFETIME })}${domain}`,
    )
  }
}

export const realtimeExtension: HydraExtension = {
  name: 'realtime',
  decorateResponse: announceHub,
}
