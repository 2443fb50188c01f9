import { pbkdf2, timingSafeEqual } from 'node:crypto'
import { promisify } from 'node:util'

const derive = promisify(pbkdf2)

// Payload's password hash formats (auth/strategies/local/generatePasswordSaltHash): the
// current prefixed one and the legacy one, both PBKDF2-SHA256 over the stored salt.
const CURRENT_PREFIX = 'pbkdf2-sha256-v1:'
const parameters = (hash: string) =>
  hash.startsWith(CURRENT_PREFIX)
    ? { hex: hash.slice(CURRENT_PREFIX.length), iterations: 600000, keyLength: 32 }
    : { hex: hash, iterations: 25000, keyLength: 512 }

/** Whether `password` matches a user's stored Payload hash and salt (constant-time comparison). */
export async function passwordMatches(user: { hash?: unknown; salt?: unknown }, password: string): Promise<boolean> {
  if (typeof user.hash !== 'string' || typeof user.salt !== 'string') return false
  const { hex, iterations, keyLength } = parameters(user.hash)
  const stored = Buffer.from(hex, 'hex')
  const given = await derive(password, user.salt, iterations, keyLength, 'sha256')
  return given.length === stored.length && timingSafeEqual(new Uint8Array(given), new Uint8Array(stored))
}
