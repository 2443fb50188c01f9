/** Sessions: JWTs signed with the site's key pair, refresh tokens, cookies, and the session endpoints. */
import type { CwaFeature } from '../hydra/feature.js'
import { refreshTokensCollection } from './collection.js'
import { sessionExtension } from './extension.js'
import { sessionOptions } from './options.js'
import { listenForTokenStateChanges } from './tokenStateNotices.js'
import { commands } from './commands/index.js'

export { sessionExtension } from './extension.js'
export { sessionClaimsOf, sessionUser, type SessionUser } from './authenticate.js'
export { clearCookie, credentialCookieNames, readCookies, serializeCookie } from './cookies.js'
export { JwtService, type SessionClaims } from './jwt.js'
export { type JwtKeys, JwtKeysMissingError, loadJwtKeys } from './keys.js'
export { RefreshTokenStore } from './refreshTokens.js'
export {
  currentSessionStanding,
  environmentJwtKeys,
  sessionServices,
  type SessionServices,
  useJwtKeys,
} from './services.js'
export { sessionSecuritySchemes } from './openapi.js'
export { refreshTokensCollection } from './collection.js'
export { announceTokenStateChange } from './tokenStateNotices.js'
export {
  exchangePreviewLink,
  PREVIEW_LINK_SECONDS,
  type PreviewSession,
  type PreviewUser,
  signPreviewLink,
} from './previewTokens.js'

/** Sessions: the refresh-token store and the session endpoints. */
export const sessionFeature = {
  name: 'session',
  options: sessionOptions,
  collections: (ctx) => [refreshTokensCollection(ctx)],
  extension: sessionExtension,
  // Each instance hears the other instances' changes to a user at once (idempotent: also called after migrating).
  onSchemaReady: async (payload) => listenForTokenStateChanges(payload),
  commands,
} satisfies CwaFeature
