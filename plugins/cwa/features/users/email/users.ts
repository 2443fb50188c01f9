import type { Payload, PayloadRequest, Where } from 'payload'
import { internalFind } from '../../../core/utils/internalFind.js'
import type { FlowUser } from './send.js'

const SELECT = {
  username: true,
  email: true,
  emailAddressVerified: true,
  newEmailAddress: true,
  enabled: true,
} as const

type FlowUserRow = FlowUser & { enabled?: boolean | null }

const absentOr = (value: unknown, type: 'boolean' | 'string') => value == null || typeof value === type

/** A users row read with SELECT (username and email are required columns: every stored user passes). */
function isFlowUser(row: Record<string, unknown>): row is Record<string, unknown> & FlowUserRow {
  return (
    (typeof row.id === 'string' || typeof row.id === 'number') &&
    typeof row.username === 'string' &&
    typeof row.email === 'string' &&
    absentOr(row.emailAddressVerified, 'boolean') &&
    absentOr(row.newEmailAddress, 'string') &&
    absentOr(row.enabled, 'boolean')
  )
}

/**
 * The user an email flow path names (`{username}`), or null. Usernames and
 * addresses are stored lower-cased and trimmed, so the lookup is too.
 * `orEmail` also accepts the account's email address (password reset
 * request). An identifier with an "@" is looked up as an address first:
 * a username may look like an address (usernames have no format rule), and
 * it must not capture the reset emails of the account owning that address.
 * Without an "@" only a username can match anyway.
 */
export async function findFlowUser(
  scope: { payload: Payload; req?: PayloadRequest },
  identifier: string,
  { orEmail = false }: { orEmail?: boolean } = {},
): Promise<FlowUserRow | null> {
  const value = identifier.trim().toLowerCase()
  if (!value) return null
  const where: Where = orEmail
    ? { or: [{ username: { equals: value } }, { email: { equals: value } }] }
    : { username: { equals: value } }
  const rows = await internalFind(scope.payload, {
    collection: 'users',
    where,
    select: SELECT,
    limit: 2,
    req: scope.req,
  })
  const docs = rows.filter(isFlowUser)
  const preferred = orEmail && value.includes('@') ? docs.find((doc) => doc.email === value) : undefined
  return preferred ?? docs.find((doc) => doc.username === value) ?? docs[0] ?? null
}
