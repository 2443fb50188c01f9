import { SignJWT } from 'jose'

/**
 * JWTs of the Mercure protocol, signed HS256 with the hub's secret: the
 * publisher's (`mercure.publish`) and the subscriber's (`mercure.subscribe`)
 * claims list topic selectors (`*`: every topic).
 */
const key = (secret: string) => new TextEncoder().encode(secret)

/** Publisher JWTs are cached for a minute less than they live. */
const publisherTokens = new Map<string, { token: string; until: number }>()
const PUBLISHER_LIFETIME = 3600

export async function publisherJwt(secret: string): Promise<string> {
  const cached = publisherTokens.get(secret)
  if (cached && cached.until > Date.now()) return cached.token
  const token = await new SignJWT({ mercure: { publish: ['*'] } })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${PUBLISHER_LIFETIME}s`)
    .sign(key(secret))
  publisherTokens.set(secret, { token, until: Date.now() + (PUBLISHER_LIFETIME - 60) * 1000 })
  return token
}

/** A subscriber JWT allowed to receive private updates of every topic, for `lifetime` seconds. */
export function subscriberJwt(secret: string, lifetime: number): Promise<string> {
  return new SignJWT({ mercure: { subscribe: ['*'] } })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${lifetime}s`)
    .sign(key(secret))
}
