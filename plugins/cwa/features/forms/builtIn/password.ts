import { incrementLoginAttempts } from 'payload'
import type { HydraContext } from '../../../hydra/context.js'
import { passwordMatches } from '../../../core/utils/passwordHash.js'
import { countFailedPasswordCheck } from '../../users/index.js'

interface StoredCredentials {
  id: string | number
  hash?: unknown
  salt?: unknown
  loginAttempts?: number | null
  lockUntil?: string | null
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
  const user = (await ctx.payload.db.findOne({
    collection: 'users',
    where: { id: { equals: ctx.user.id } },
    req: ctx.req,
  })) as StoredCredentials | null
  if (!user) return 'wrong'
  if (user.lockUntil && new Date(user.lockUntil).getTime() > Date.now()) return 'locked'
  if (await passwordMatches(user, password)) return 'ok'
  const users = ctx.payload.collections.users.config
  await incrementLoginAttempts({
    collection: users,
    payload: ctx.payload,
    // A TypedUser names its collection, the adapter's row does not: added as Payload's own login does.
    user: { ...user, collection: users.slug },
  })
  // Also a failed attempt of this client on the account for the login throttle (so a locked account stays closed to it).
  await countFailedPasswordCheck(
    ctx.payload,
    ctx.headers,
    String((user as { username?: unknown }).username ?? ctx.user.username ?? ''),
  )
  return 'wrong'
}
