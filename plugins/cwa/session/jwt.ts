import { errors, jwtVerify, SignJWT } from 'jose'
import { randomUUID } from 'node:crypto'
import type { JwtKeys } from './keys'

/** The only algorithm accepted: tokens signed otherwise (none, HS256 with the public key...) are refused. */
export const JWT_ALGORITHM = 'RS256'

export interface SessionClaims {
  sub: string
  username: string
  roles: string[]
  iat: number
  exp: number
  jti: string
}

export class InvalidToken extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'Expired JWT Token' : 'Invalid JWT Token')
  }
}

/** Signs and verifies the session JWT with the RSA key pair, algorithm pinned. */
export class JwtService {
  constructor(
    private readonly keys: JwtKeys,
    private readonly ttlSeconds: number,
  ) {}

  async sign(user: { id: string | number; username?: string | null; roles?: string[] | null }): Promise<string> {
    return new SignJWT({ username: user.username ?? '', roles: user.roles ?? [] })
      .setProtectedHeader({ alg: JWT_ALGORITHM, typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.keys.privateKey)
  }

  async verify(token: string): Promise<SessionClaims> {
    try {
      const { payload } = await jwtVerify(token, this.keys.publicKey, { algorithms: [JWT_ALGORITHM] })
      if (typeof payload.sub !== 'string') throw new InvalidToken('invalid')
      return payload as unknown as SessionClaims
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new InvalidToken('expired')
      throw new InvalidToken('invalid')
    }
  }
}
