import type { Payload } from 'payload'
import { getOptions } from '../core/registry.js'
import { JwtService } from './jwt.js'
import { type JwtKeys, loadJwtKeys } from './keys.js'
import type { SessionClaims } from './jwt.js'
import { RefreshTokenStore } from './refreshTokens.js'
import { sessionStanding } from './revocation.js'

export interface SessionServices {
  jwt: JwtService
  refreshTokens: RefreshTokenStore
}

/** What the key load reads from the environment (session/keys.ts). */
const KEY_SETTINGS = ['NODE_ENV', 'CWA_DATA_DIR', 'JWT_SECRET_KEY', 'JWT_PUBLIC_KEY', 'JWT_PASSPHRASE'] as const

let processKeys: { settings: string; keys: Promise<JwtKeys> } | null = null

/**
 * The JWT key pair from the environment (JWT_SECRET_KEY...), loaded once per process and settings: a process whose
 * settings change (a test, an embedding app) loads again rather than keep keys the settings no longer name. A failed
 * load is retried next time.
 */
export function environmentJwtKeys(): Promise<JwtKeys> {
  const settings = KEY_SETTINGS.map((name) => process.env[name] ?? '').join('\0')
  if (processKeys?.settings !== settings) {
    const keys = loadJwtKeys(process.env).catch((error: unknown) => {
      if (processKeys?.keys === keys) processKeys = null
      throw error
    })
    processKeys = { settings, keys }
  }
  return processKeys.keys
}

const keysOf = new WeakMap<Payload, JwtKeys>()
const services = new WeakMap<Payload, Promise<SessionServices>>()

/** Signs this instance's sessions with these keys instead of the environment's (tests, apps holding their keys elsewhere). */
export function useJwtKeys(payload: Payload, keys: JwtKeys): void {
  keysOf.set(payload, keys)
  services.delete(payload)
}

/** The JWT service and refresh-token store of a Payload instance, built once. */
export function sessionServices(payload: Payload): Promise<SessionServices> {
  let found = services.get(payload)
  if (!found) {
    const { session } = getOptions(payload.config)
    const given = keysOf.get(payload)
    found = (given ? Promise.resolve(given) : environmentJwtKeys()).then((keys) => ({
      jwt: new JwtService(keys, session.tokenTtl),
      refreshTokens: new RefreshTokenStore(payload, session.refreshTtl),
    }))
    found.catch(() => services.delete(payload))
    services.set(payload, found)
  }
  return found
}

/**
 * Whether a token's claims still speak for a live session: the user exists
 * and is enabled, its token version is the one signed (no password change,
 * reset, change of roles or disabling since), and its session (`sid`) was
 * not logged out or revoked. Cached per instance for the session-check bound
 * (revocation.ts). The embedded Mercure hub asks it before each private update.
 */
export async function currentSessionStanding(
  payload: Payload,
  claims: Pick<SessionClaims, 'sub' | 'ver' | 'sid'>,
): Promise<'current' | 'stale' | 'gone'> {
  const { refreshTokens } = await sessionServices(payload)
  return sessionStanding(payload, claims, (userId, sid) => refreshTokens.sessionLive(userId, sid))
}
