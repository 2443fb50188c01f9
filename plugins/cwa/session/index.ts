/** Sessions: JWTs signed with the site's key pair, refresh tokens, cookies, and the session endpoints. */
import type { CwaFeature } from '../hydra/feature'
import { refreshTokensCollection } from './collection'
import { sessionExtension } from './extension'

export { sessionExtension } from './extension'
export { sessionUser, type SessionUser } from './authenticate'
export { clearCookie, readCookies, serializeCookie } from './cookies'
export { JwtService } from './jwt'
export { type JwtKeys, loadJwtKeys } from './keys'
export { RefreshTokenStore } from './refreshTokens'
export { environmentJwtKeys, sessionServices, type SessionServices, useJwtKeys } from './services'
export { sessionSecuritySchemes } from './openapi'
export { refreshTokensCollection } from './collection'

/** Sessions: the refresh-token store and the session endpoints. */
export const sessionFeature: CwaFeature = {
  name: 'session',
  collections: (ctx) => [refreshTokensCollection(ctx)],
  extension: sessionExtension,
}
