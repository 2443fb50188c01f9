import { errors, jwtVerify, SignJWT } from 'jose'
import { randomUUID } from 'node:crypto'
import type { JwtKeys } from './keys.js'

/** The only algorithm accepted: tokens signed otherwise (none, HS256 with the public key...) are refused. */
export const JWT_ALGORITHM = 'RS256'

/** Clock difference tolerated between the instances that sign and verify (seconds). */
const CLOCK_TOLERANCE_SECONDS = 60

export interface SessionClaims {
  sub: string
  username: string
  roles: string[]
  iat: number
  exp: number
  jti: string
  /**
   * The user's token version when the token was signed (see session/revocation.ts):
   * a password change, disabling or a change of roles raises the stored one and
   * ends every JWT signed before. Absent in tokens signed before it existed (read as 0).
   */
  ver?: number
  /**
   * The session the token belongs to: its refresh-token chain (refreshTokens.ts), which a logout ends. The
   * embedded Mercure hub checks it before each private update. Absent in tokens signed without a refresh token.
   */
  sid?: string
  /**
   * What the token may do, when not everything its user may: `preview`, reads only (a front end rendering drafts for
   * an editor); `preview-link`, nothing but its exchange for a preview token (previewTokens.ts). Absent: a session.
   */
  scope?: TokenScope
  /** A preview link's path on the front end. */
  path?: string
}

export type TokenScope = 'preview' | 'preview-link'
const SCOPES: readonly unknown[] = ['preview', 'preview-link'] satisfies TokenScope[]

export class InvalidToken extends Error {
  constructor(readonly reason: 'expired' | 'invalid' | 'revoked') {
    super(reason === 'expired' ? 'Expired JWT Token' : reason === 'revoked' ? 'Revoked JWT Token' : 'Invalid JWT Token')
  }
}

/** Signs and verifies the session JWT with the RSA key pair, algorithm pinned. */
export class JwtService {
  constructor(
    private readonly keys: JwtKeys,
    private readonly ttlSeconds: number,
  ) {}

  /** A JWT for the user, of the session `sid` (the refresh-token chain issued beside it) when given. */
  async sign(
    user: {
      id: string | number
      username?: string | null
      roles?: string[] | null
      tokenVersion?: number | null
    },
    sid?: string,
  ): Promise<string> {
    return new SignJWT({
      username: user.username ?? '',
      roles: user.roles ?? [],
      ver: Number(user.tokenVersion ?? 0),
      ...(sid ? { sid } : {}),
    })
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.keys.privateKey)
  }

  /** A token of a narrower scope (previewTokens.ts), living `seconds` (never beyond a session token's lifetime). */
  async signScoped(
    user: { id: string | number; username?: string | null; roles?: string[] | null; tokenVersion?: number | null },
    scope: TokenScope,
    seconds: number,
    extra: { path?: string } = {},
  ): Promise<string> {
    return new SignJWT({
      username: user.username ?? '',
      roles: user.roles ?? [],
      ver: Number(user.tokenVersion ?? 0),
      scope,
      ...extra,
    })
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${Math.min(seconds, this.ttlSeconds)}s`)
      .sign(this.keys.privateKey)
  }

  /**
   * A token must carry `sub`, `exp` and `iat` (one signed without `exp` would
   * otherwise be valid forever), must not be older than the token lifetime
   * (whatever its `exp` says) and must not be issued in the future.
   */
  async verify(token: string): Promise<SessionClaims> {
    try {
      const { payload } = await jwtVerify(token, this.keys.publicKey, {
        algorithms: [JWT_ALGORITHM],
        requiredClaims: ['sub', 'exp', 'iat'],
        maxTokenAge: this.ttlSeconds + CLOCK_TOLERANCE_SECONDS,
      })
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number' || typeof payload.iat !== 'number')
        throw new InvalidToken('invalid')
      if (payload.iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw new InvalidToken('invalid')
      if (payload.ver !== undefined && !Number.isInteger(payload.ver)) throw new InvalidToken('invalid')
      if (payload.sid !== undefined && typeof payload.sid !== 'string') throw new InvalidToken('invalid')
      if (payload.scope !== undefined && !SCOPES.includes(payload.scope)) throw new InvalidToken('invalid')
      // cast: jose types custom claims as unknown; these were signed by this service (signature verified above)
      return payload as unknown as SessionClaims
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new InvalidToken('expired')
      throw new InvalidToken('invalid')
    }
  }
}
