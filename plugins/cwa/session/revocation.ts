import type { Payload } from 'payload'
import type { SessionClaims } from './jwt.js'

/**
 * Whether a verified JWT still speaks for its user. A JWT lives up to
 * `session.tokenTtl` (3600 s); without this check it would outlive a
 * disabled or deleted account, a change of roles and a password change or
 * reset. The users collection keeps a `tokenVersion` that every such change
 * raises (features/users/hooks/tokenVersion.ts), and the JWT carries the
 * version it was signed under (`ver`). Per authenticated request: one
 * query by primary key (enabled, tokenVersion), kept in process memory for
 * at most tokenStateTtlMs() (2 s by default). A change forgets the user's
 * entry at once on every instance: this one directly, the others on the
 * change's NOTIFY (tokenStateNotices.ts); an instance whose listener is
 * down sees it within the 2 s.
 */
export const TOKEN_STATE_TTL_MS = 2000

/**
 * How long a user's state is kept: CWA_SESSION_CHECK_CACHE_MS (0 to 5000 ms;
 * 0 asks the database on every request, as the tests do to measure the worst
 * case), else TOKEN_STATE_TTL_MS. Read on every use.
 */
export function tokenStateTtlMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.CWA_SESSION_CHECK_CACHE_MS)
  if (env.CWA_SESSION_CHECK_CACHE_MS === undefined || env.CWA_SESSION_CHECK_CACHE_MS === '' || !Number.isFinite(value))
    return TOKEN_STATE_TTL_MS
  return Math.min(5000, Math.max(0, value))
}

/** Entries kept per instance at most (the oldest go first). */
const MAX_ENTRIES = 10_000

interface TokenState {
  enabled: boolean
  version: number
}

interface Entry {
  at: number
  state: Promise<TokenState | null>
}

const caches = new WeakMap<Payload, Map<string, Entry>>()
/** Per user, whether each of its sessions (`sid`) is live, kept as long as the user's state. */
const sessionCaches = new WeakMap<Payload, Map<string, Map<string, { at: number; live: Promise<boolean> }>>>()

function cacheOf(payload: Payload): Map<string, Entry> {
  let cache = caches.get(payload)
  if (!cache) caches.set(payload, (cache = new Map()))
  return cache
}

/** Forgets every user (the session-check listener's connection broke: a notice may have been missed). */
export function forgetAllTokenStates(payload: Payload): void {
  caches.get(payload)?.clear()
  sessionCaches.get(payload)?.clear()
}

/** Forgets what is known of the user (after a write to the user through this instance, or another's notice). */
export function forgetTokenState(payload: Payload, userId: string | number): void {
  caches.get(payload)?.delete(String(userId))
  sessionCaches.get(payload)?.delete(String(userId))
}

async function readState(payload: Payload, userId: string): Promise<TokenState | null> {
  const user = (await payload.db.findOne({
    collection: 'users',
    where: { id: { equals: userId } },
    select: { enabled: true, tokenVersion: true },
  })) as { enabled?: boolean | null; tokenVersion?: number | string | null } | null
  if (!user) return null
  return { enabled: user.enabled !== false, version: Number(user.tokenVersion ?? 0) }
}

/** The user's current state, from the short-lived cache or the database. */
function tokenState(payload: Payload, userId: string): Promise<TokenState | null> {
  const cache = cacheOf(payload)
  const now = Date.now()
  const ttl = tokenStateTtlMs()
  const found = cache.get(userId)
  if (found && now - found.at < ttl) return found.state
  const state = readState(payload, userId)
  if (ttl === 0) return state
  cache.delete(userId)
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
  cache.set(userId, { at: now, state })
  // A failed read is not kept: the next request asks again.
  state.catch(() => cache.get(userId)?.state === state && cache.delete(userId))
  return state
}

/**
 * 'gone': the user was deleted or disabled; 'stale': the token was signed
 * before a password change, a reset or a change of roles (a new one, with
 * the current roles, can come from the refresh token); 'current' otherwise.
 */
export async function tokenStanding(
  payload: Payload,
  claims: Pick<SessionClaims, 'sub' | 'ver'>,
): Promise<'current' | 'stale' | 'gone'> {
  const state = await tokenState(payload, claims.sub)
  if (!state || !state.enabled) return 'gone'
  return Number(claims.ver ?? 0) === state.version ? 'current' : 'stale'
}

/** Whether the session still has a usable refresh token, from the short-lived cache or the database. */
function sessionLive(
  payload: Payload,
  userId: string,
  sid: string,
  read: (userId: string, sid: string) => Promise<boolean>,
): Promise<boolean> {
  let byUser = sessionCaches.get(payload)
  if (!byUser) sessionCaches.set(payload, (byUser = new Map()))
  const now = Date.now()
  const ttl = tokenStateTtlMs()
  const found = byUser.get(userId)?.get(sid)
  if (found && now - found.at < ttl) return found.live
  const live = read(userId, sid)
  if (ttl === 0) return live
  let sessions = byUser.get(userId)
  if (!sessions) {
    if (byUser.size >= MAX_ENTRIES) byUser.delete(byUser.keys().next().value as string)
    byUser.set(userId, (sessions = new Map()))
  }
  // A user has a few sessions; a client inventing `sid`s cannot get here (the JWT that names one is signed).
  if (sessions.size >= 100) sessions.clear()
  sessions.set(sid, { at: now, live })
  live.catch(() => sessions.get(sid)?.live === live && sessions.delete(sid))
  return live
}

/**
 * The standing of a session JWT's claims as tokenStanding tells it, and
 * 'gone' as well once its session (`sid`, the refresh-token chain) has no
 * usable token left: logged out, expired, revoked. Cached like the user's
 * state (tokenStateTtlMs), forgotten at once on this instance when tokens
 * end, and on the others by the session-check notice. The embedded Mercure
 * hub asks it before each private update of a subscriber.
 */
export async function sessionStanding(
  payload: Payload,
  claims: Pick<SessionClaims, 'sub' | 'ver' | 'sid'>,
  readSession: (userId: string, sid: string) => Promise<boolean>,
): Promise<'current' | 'stale' | 'gone'> {
  const standing = await tokenStanding(payload, claims)
  if (standing !== 'current' || !claims.sid) return standing
  return (await sessionLive(payload, claims.sub, claims.sid, readSession)) ? 'current' : 'gone'
}
