import {
  type CollectionBeforeChangeHook,
  type CollectionBeforeDeleteHook,
  type CollectionBeforeValidateHook,
  ValidationError,
  type Where,
} from 'payload'
import { ROLE_SUPER_ADMIN } from '../../../core/options.js'
import { normalizeEmail } from './changes.js'

/**
 * The first account of an empty site (the admin panel's create-first-user
 * screen) becomes super admin: otherwise nobody could reach the admin panel.
 */
export const firstUserIsSuperAdmin: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  // Only Payload's first-register operation: an open registration endpoint must never grant roles.
  if (operation !== 'create' || !/\/first-register(\?|$)/.test(req.pathname ?? req.url ?? '')) return data
  const { totalDocs } = await req.payload.count({ collection: 'users', req, overrideAccess: true })
  return totalDocs === 0 ? { ...data, roles: [ROLE_SUPER_ADMIN], enabled: true } : data
}

/**
 * A deleted user's refresh tokens go with it (their user column is required,
 * so the foreign key cannot just be cleared: the delete would fail).
 */
export const deleteRefreshTokens: CollectionBeforeDeleteHook = async ({ id, req }) => {
  await req.payload.delete({
    collection: 'refresh_tokens',
    where: { user: { equals: id } },
    req,
    overrideAccess: true,
    depth: 0,
  })
}

/**
 * A taken email is reported on the email (Payload's own check with
 * loginWithUsername blames the username for it).
 */
export const emailNotTaken: CollectionBeforeValidateHook = async ({ data, originalDoc, req }) => {
  const email = normalizeEmail(data?.email)
  if (!email || email === normalizeEmail(originalDoc?.email)) return data
  const where: Where = originalDoc?.id
    ? { and: [{ email: { equals: email } }, { id: { not_equals: originalDoc.id } }] }
    : { email: { equals: email } }
  const { totalDocs } = await req.payload.count({ collection: 'users', where, req, overrideAccess: true })
  if (totalDocs > 0)
    throw new ValidationError({ errors: [{ path: 'email', message: 'This email address is already used.' }] })
  return data
}
