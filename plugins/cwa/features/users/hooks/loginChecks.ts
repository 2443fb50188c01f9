import { pbkdf2, randomBytes } from 'node:crypto'
import {
  AuthenticationError,
  type CollectionBeforeLoginHook,
  type CollectionBeforeOperationHook,
  UnverifiedEmail,
} from 'payload'
import type { ResolvedCwaOptions } from '../../../core/options.js'
import { passwordMatches } from '../../../core/utils/passwordHash.js'

/**
 * Payload's current password hash parameters (pbkdf2-sha256-v1: 600000
 * iterations, 32-byte key; auth/strategies/local/generatePasswordSaltHash).
 * A refused login for an unknown or locked account costs one such hash too.
 */
const HASH_ITERATIONS = 600_000
const HASH_KEY_LENGTH = 32

function dummyPasswordHash(password: string): Promise<void> {
  return new Promise((resolve) => {
    pbkdf2(password, randomBytes(32).toString('hex'), HASH_ITERATIONS, HASH_KEY_LENGTH, 'sha256', () => resolve())
  })
}

/**
 * Payload refuses an unknown username (or a locked account) before hashing
 * anything, in a few milliseconds, while a wrong password costs a password
 * hash (~250 ms): the difference tells which usernames exist. Before the
 * login operation, a username with no usable account gets the same hash.
 */
export const equalLoginTiming: CollectionBeforeOperationHook = async ({ args, operation, req }) => {
  if (operation !== 'login') return args
  const data = (args as { data?: { username?: unknown; password?: unknown } }).data
  const username = typeof data?.username === 'string' ? data.username.toLowerCase().trim() : ''
  const password = typeof data?.password === 'string' ? data.password : ''
  if (!username || !password) return args
  const user = (await req.payload.db.findOne({
    collection: 'users',
    where: { username: { equals: username } },
    select: { lockUntil: true, hash: true, salt: true },
    req,
  })) as { id: string | number; lockUntil?: string | null; hash?: unknown; salt?: unknown } | null
  const locked = Boolean(user?.lockUntil && new Date(user.lockUntil).getTime() > Date.now())
  if (user && locked && req.context.cwaFirstLoginTry === true) {
    // The lock must not keep the owner out (anyone can lock any account from a few addresses): the first
    // try of an address that has not failed on this account is checked, and the right password lifts the lock.
    if (await passwordMatches(user, password)) {
      await req.payload.db.updateOne({
        collection: 'users',
        id: user.id,
        data: { loginAttempts: 0, lockUntil: null },
        req,
      })
      req.payload.logger.info(
        { userId: user.id },
        'Login lock lifted: the right password from a client address with no failed attempt on the account',
      )
    }
    return args
  }
  if (!user || locked) await dummyPasswordHash(password)
  return args
}

/**
 * The login path's user checker (contract, "Roles and access"): disabled
 * users are refused and, with `emailVerification.denyUnverifiedLogin`,
 * users whose address is not verified. Runs after the password check, so
 * it reveals nothing to a caller without the password.
 */
export function userChecker(options: ResolvedCwaOptions): CollectionBeforeLoginHook {
  return ({ user, req }) => {
    const account = user as { enabled?: boolean; emailAddressVerified?: boolean }
    if (account.enabled === false) throw new AuthenticationError()
    if (options.user.emailVerification.denyUnverifiedLogin && account.emailAddressVerified !== true)
      throw new UnverifiedEmail({ t: req.t })
    return user
  }
}
