import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, CollectionBeforeChangeHook, Field } from 'payload'
import { announceTokenStateChange } from '../../../session/index.js'
import { forgetTokenState } from '../../../session/revocation.js'

/**
 * The user's token version (session/revocation.ts): every JWT carries the
 * version it was signed under and is refused once the stored one moved on.
 * Never readable or writable through an API; only tokenVersionRule sets it.
 */
export const tokenVersionField: Field = {
  name: 'tokenVersion',
  type: 'number',
  defaultValue: 0,
  admin: { hidden: true, disableListColumn: true, disableListFilter: true },
  access: { read: () => false, create: () => false, update: () => false },
}

const sameRoles = (a: unknown, b: unknown) => {
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String).sort().join(',') : '')
  return list(a) === list(b)
}

/**
 * Raises the token version when the JWTs issued so far must end: the
 * password changes (a change or a reset), the account is disabled, or its
 * roles change (a demotion must not wait for the JWT to expire; a JWT with
 * the current roles comes from the refresh token). Whatever the request
 * sent for it is ignored.
 */
export const tokenVersionRule: CollectionBeforeChangeHook = ({ data, operation, originalDoc }) => {
  if (operation !== 'update' || !originalDoc) return { ...data, tokenVersion: 0 }
  const current = Number(originalDoc.tokenVersion ?? 0) || 0
  const passwordChanged = typeof data?.password === 'string' && data.password !== ''
  const disabled = data?.enabled === false && originalDoc.enabled !== false
  const rolesChanged = data?.roles !== undefined && !sameRoles(data.roles, originalDoc.roles)
  return { ...data, tokenVersion: passwordChanged || disabled || rolesChanged ? current + 1 : current }
}

/**
 * Every instance forgets what it cached of the user: this one at once, the
 * others when the write commits (a NOTIFY in its transaction), so that a
 * disabled account's JWTs end everywhere at once. Every write announces
 * itself (the token version is hidden from the doc a hook receives through
 * an API; a user is written rarely, a notice costs one statement).
 */
export const forgetCachedTokenState: CollectionAfterChangeHook = async ({ doc, req }) => {
  forgetTokenState(req.payload, doc.id)
  await announceTokenStateChange(req, doc.id)
  return doc
}

export const forgetDeletedTokenState: CollectionAfterDeleteHook = async ({ id, req }) => {
  forgetTokenState(req.payload, id)
  await announceTokenStateChange(req, id)
}
