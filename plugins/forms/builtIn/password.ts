import { pbkdf2, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'
import type { HydraContext } from '../../../src/hydra/context'

const derive = promisify(pbkdf2)

// Payload's password hash formats (auth/strategies/local/generatePasswordSaltHash): the
// current prefixed one and the legacy one, both PBKDF2-SHA256 over the stored salt.
const CURRENT_PREFIX = 'pbkdf2-sha256-v1:'
const parameters = (hash: string) =>
  hash.startsWith(CURRENT_PREFIX)
    ? { hex: hash.slice(CURRENT_PREFIX.length), iterations: 600000, keyLength: 32 }
    : { hex: hash, iterations: 25000, keyLength: 512 }

/**
 * Whether `password` is the signed-in user's current password. Checked
 * against the stored hash directly: going through Payload's login would
 * count failed attempts and open a session as a side effect.
 */
export async function verifyPassword(ctx: HydraContext, password: string): Promise<boolean> {
  if (!ctx.user) return false
  const user = (await ctx.payload.db.findOne({ collection: 'users', where: { id: { equals: ctx.user.id } }, req: ctx.req })) as {
    hash?: unknown
    salt?: unknown
  } | null
  if (typeof user?.hash !== 'string' || typeof user.salt !== 'string') return false
  const { hex, iterations, keyLength } = parameters(user.hash)
  const stored = Buffer.from(hex, 'hex')
  const given = await derive(password, user.salt, iterations, keyLength, 'sha256')
  return given.length === stored.length && timingSafeEqual(given as unknown as Uint8Array, stored as unknown as Uint8Array)
}
