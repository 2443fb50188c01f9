import { createHmac } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JWTPayload } from 'jose'
import type { Payload } from 'payload'
import { getOptions } from '../../../core/registry.js'
import { replicatedDatabase } from '../../../core/replicas/index.js'
import { onClosePayload } from '../../../core/utils/closePayload.js'
import { type LockConnection, type LockPool, trySessionLock } from '../../../core/utils/sessionLock.js'
import { currentSessionStanding } from '../../../session/index.js'
import { isCorsOrigin } from '../../frontEnd/index.js'
import { hubRequestHandler } from './http.js'
import { MercureHub } from './hub.js'

/** Where the embedded hub is served, as the protocol's discovery names it. */
export const HUB_PATH = '/.well-known/mercure'

/** The advisory lock that keeps a database to one embedded hub. */
const LOCK_KEY = 'cwa:mercure:embedded-hub'

interface Embedded {
  hub: MercureHub
  handle: (req: IncomingMessage, res: ServerResponse) => void
  /** The HS256 secret of its JWTs: the subscriber cookie is signed with it. */
  secret: string
  /** The connection holding the lock (none without a pool). */
  lock: LockConnection | null
}

/**
 * The hubs running, per Payload. On globalThis: the admin panel's Next.js
 * bundle may load its own copy of this module while it uses the same Payload
 * (getPayload's global cache), and its writes must reach the hub too.
 */
const registryKey = Symbol.for('payload-cwa.embeddedMercureHubs')
const registry: WeakMap<Payload, Embedded> = ((globalThis as Record<symbol, unknown>)[registryKey] ??= new WeakMap<
  Payload,
  Embedded
>()) as WeakMap<Payload, Embedded>

/** The refusal of the start: one line saying what to do instead. */
export class EmbeddedHubRefused extends Error {
  override name = 'EmbeddedHubRefused'
}

const USE_A_REAL_HUB =
  'set MERCURE_URL (mercure.url) to a real Mercure hub shared by every instance, or MERCURE_EMBEDDED=0 (docs/realtime.md)'

/** Without a configured secret, one derived from Payload's: stable across restarts, never the secret itself. */
function derivedSecret(payload: Payload): string {
  return createHmac('sha256', payload.secret).update('payload-cwa: embedded Mercure hub JWT').digest('base64url')
}

/**
 * Whether a subscriber JWT's session still stands, by the session check
 * (session/revocation.ts, cached for its bound): the user exists and is
 * enabled, the token version it was issued under is current (no password
 * change or reset, no change of roles since), and its session was not
 * logged out or revoked.
 */
async function subscriberStands(payload: Payload, claims: JWTPayload): Promise<boolean> {
  if (typeof claims.sub !== 'string') return false
  const ver = typeof claims.ver === 'number' ? claims.ver : 0
  const sid = typeof claims.sid === 'string' ? claims.sid : undefined
  return (await currentSessionStanding(payload, { sub: claims.sub, ver, sid })) === 'current'
}

/** Takes the database's embedded-hub lock on a connection of its own, kept while the hub runs; null without a pool. */
async function takeLock(payload: Payload): Promise<LockConnection | null> {
  const pool: LockPool | undefined = payload.db.pool
  if (!pool) return null
  const client = await trySessionLock(pool, LOCK_KEY)
  if (!client)
    throw new EmbeddedHubRefused(
      `Another instance on this database runs the embedded Mercure hub, which serves one instance only: ${USE_A_REAL_HUB}`,
    )
  // A broken connection ends the session and the lock with it; the hub goes on (what it serves is in this process).
  client.on('error', (err) =>
    payload.logger.warn({ err }, 'The embedded Mercure hub lost the connection holding its database lock'),
  )
  return client
}

/**
 * Starts the embedded hub of this Payload when the options want it
 * (`mercure.embedded`, no `mercure.url`); returns null otherwise. Refuses
 * (EmbeddedHubRefused) when the deployment has several instances: read
 * replicas are configured, or another instance on the database holds the
 * hub's lock. The Express app of 'payload-cwa/express' serves it at
 * /.well-known/mercure; the service publishes to it in process.
 */
export async function startEmbeddedHub(payload: Payload): Promise<MercureHub | null> {
  const options = getOptions(payload.config)
  const mercure = options.mercure
  if (mercure.url || !mercure.embedded) return null
  const running = registry.get(payload)
  if (running) return running.hub
  if (replicatedDatabase(payload))
    throw new EmbeddedHubRefused(
      `The embedded Mercure hub serves one instance, and read replicas (DATABASE_REPLICA_URLS) mean several: ${USE_A_REAL_HUB}`,
    )
  const lock = await takeLock(payload)
  const secret = mercure.jwtSecret ?? derivedSecret(payload)
  const hub = new MercureHub({
    publisherSecret: secret,
    subscriberSecret: secret,
    cookieName: mercure.cookie.name,
    limits: mercure.hub,
    allowsOrigin: (origin) => isCorsOrigin(origin, options.cors),
    onSlowSubscriber: (details) =>
      payload.logger.warn(details, 'Mercure: a subscriber left too much unread and was disconnected (slow consumer)'),
    standing: (claims) => subscriberStands(payload, claims),
    onSessionEnded: (details) =>
      payload.logger.info(
        details,
        "Mercure: a subscriber's session ended; its stream was closed before a private update",
      ),
  })
  registry.set(payload, { hub, handle: hubRequestHandler(hub), secret, lock })
  onClosePayload(payload, () => closeEmbeddedHub(payload))
  payload.logger.info(
    { path: HUB_PATH, ...mercure.hub, jwtSecretFrom: mercure.jwtSecret ? 'mercure.jwtSecret' : "Payload's secret" },
    `Mercure: the embedded hub is on at ${HUB_PATH} (one instance only; a real hub for production: MERCURE_URL)`,
  )
  return hub
}

/**
 * Stops the embedded hub: every open stream ends (they never end by
 * themselves, and a graceful stop waits for requests in flight), new
 * subscriptions are refused, the lock is released. closePayload does it
 * too; a server's stop calls it first.
 */
export async function closeEmbeddedHub(payload: Payload): Promise<void> {
  const embedded = registry.get(payload)
  if (!embedded) return
  registry.delete(payload)
  embedded.hub.close()
  if (!embedded.lock) return
  await embedded.lock.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [LOCK_KEY]).catch(() => undefined)
  embedded.lock.release()
}

/** The running embedded hub of this Payload (its secret and its HTTP handler), or null. */
export function embeddedHubOf(payload: Payload): Embedded | null {
  return registry.get(payload) ?? null
}

/**
 * Middleware serving the embedded hub, for Express to mount at HUB_PATH
 * (which it strips from the URL): hands on while no hub runs, and for any
 * path below (the protocol's subscriptions API is not served).
 */
export function embeddedHubMiddleware(payload: Payload) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const embedded = registry.get(payload)
    if (!embedded || !/^\/?(?:\?|$)/.test(req.url ?? '')) return next()
    embedded.handle(req, res)
  }
}
