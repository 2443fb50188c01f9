/** The session layer's share of the package's front door (index.ts re-exports it). */
export { jwtKeyEnvironment, type JwtKeys, JwtKeysMissingError, loadJwtKeys } from './keys.js'
export { RefreshTokenStore } from './refreshTokens.js'
// Its options (added to CwaPluginOptions by declaration merging), so an app type-checks them.
export type {} from './options.js'
