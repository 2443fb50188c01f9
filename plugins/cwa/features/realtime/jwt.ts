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

/** The session a subscriber JWT speaks for: the embedded hub checks it is still current before each private update. */
export interface SubscriberSession {
  /** The user (`sub`). */
  sub: string
  /** The user's token version the session JWT was signed under (`ver`). */
  ver: number
  /** The session (`sid`: its refresh-token chain), when the session JWT names one. */
  sid?: string
  /** When the session JWT expires (seconds since the epoch): the subscriber JWT never outlives it. */
  exp: number
}

/**
 * A subscriber JWT allowed to receive private updates of every topic, for
 * at most `lifetime` seconds and never beyond the session's JWT, carrying
 * the session it was issued for (`sub`, `ver`, `sid`).
 */
export function subscriberJwt(secret: string, lifetime: number, session: SubscriberSession): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const { sub, ver, sid, exp } = session
  return new SignJWT({ mercure: { subscribe: ['*'] }, ver, ...(sid ? { sid } : {}) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(sub)
    .setIssuedAt(now)
    .setExpirationTime(Math.min(now + lifetime, exp))
    .sign(key(secret))
}
