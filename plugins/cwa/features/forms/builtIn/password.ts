import { pbkdf2, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import { incrementLoginAttempts } from 'payload'
import type { HydraContext } from '../../../hydra/context'

const derive = promisify(pbkdf2)

// Payload's password hash formats (auth/strategies/local/generatePasswordSaltHash): the
// current prefixed one and the legacy one, both PBKDF2-SHA256 over the stored salt.
const CURRENT_PREFIX = 'pbkdf2-sha256-v1:'
const parameters = (hash: string) =>
  hash.startsWith(CURRENT_PREFIX)
    ? { hex: hash.slice(CURRENT_PREFIX.length), iterations: 600000, keyLength: 32 }
    : { hex: hash, iterations: 25000, keyLength: 512 }

interface StoredCredentials {
  id: string | number
  hash?: unknown
  salt?: unknown
  loginAttempts?: number | null
  lockUntil?: string | null
}

async function matches(user: StoredCredentials, password: string): Promise<boolean> {
  if (typeof user.hash !== 'string' || typeof user.salt !== 'string') return false
  const { hex, iterations, keyLength } = parameters(user.hash)
  const stored = Buffer.from(hex, 'hex')
  const given = await derive(password, user.salt, iterations, keyLength, 'sha256')
  return given.length === stored.length && timingSafeEqual(given as unknown as Uint8Array, stored as unknown as Uint8Array)
}

export type PasswordCheck = 'ok' | 'wrong' | 'locked'

/**
 * Whether `password` is the signed-in user's current password, checked
 * like a login attempt: a locked account ('locked') is not checked at all,
 * and a wrong password counts as a failed login (Payload's loginAttempts /
 * lockUntil: maxLoginAttempts failures lock the account for lockTime). So a
 * stolen session cannot use the check to guess the password without limit.
 * Checked against the stored hash directly: Payload's login would also open
 * a session. The failure is counted outside the request's transaction (it
 * must stand when the form submit is rolled back).
 */
export async function checkCurrentPassword(ctx: HydraContext, password: string): Promise<PasswordCheck> {
  if (!ctx.user) return 'wrong'
  const user = (await ctx.payload.db.findOne({ collection: 'users', where: { id: { equals: ctx.user.id } }, req: ctx.req })) as StoredCredentials | null
  if (!user) return 'wrong'
  if (user.lockUntil && new Date(user.lockUntil).getTime() > Date.now()) return 'locked'
  if (await matches(user, password)) return 'ok'
  await incrementLoginAttempts({ collection: ctx.payload.collections.users.config, payload: ctx.payload, user: user as never })
  return 'wrong'
}
