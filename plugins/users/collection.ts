import {
  AuthenticationError,
  type CollectionBeforeChangeHook,
  type CollectionBeforeDeleteHook,
  type CollectionBeforeValidateHook,
  type CollectionConfig,
  type FieldAccess,
  ValidationError,
  type Where,
} from 'payload'
import { type CoreContext, tableName } from '../cwa/context'
import { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from '../cwa/options'
import { isAdmin, isSuperAdmin } from '../cwa/roles'
import type { CwaResourceMeta } from '../cwa/types'
import { apiSessionStrategy, clearApiSessionCookies } from './sessionStrategy'

/**
 * The user resource: Payload auth (password hashing, admin login) with the
 * contract's fields. Stored roles are only the assigned ones; output expands
 * them through the hierarchy.
 */
export function usersCollection(ctx: CoreContext): CollectionConfig {
  const { options } = ctx
  const hierarchy = options.roleHierarchy
  const superAdminField: FieldAccess = ({ req }) => isSuperAdmin(req.user, hierarchy)
  const selfOrSuperAdmin = ({ req, id }: { req: { user?: unknown }; id?: string | number }) => {
    const user = req.user as { id?: string } | null | undefined
    if (!user) return false
    if (isSuperAdmin(user as never, hierarchy)) return true
    return id === undefined ? { id: { equals: user.id } } : String(id) === String(user.id)
  }
  const cwa: CwaResourceMeta = {
    kind: 'user',
    shortName: 'User',
    pathPrefix: '',
    segment: 'users',
    aliases: { emailAddress: 'email', plainPassword: 'password' },
    writeOnly: ['plainPassword'],
    readOnly: ['emailAddressVerified'],
    search: ['username', 'email'],
    order: ['createdAt', 'username'],
  }
  const roleOptions = [...new Set([ROLE_USER, ROLE_ADMIN, ROLE_SUPER_ADMIN, ...Object.keys(hierarchy)])]
  return {
    slug: 'users',
    dbName: tableName(ctx, 'users'),
    admin: { useAsTitle: 'username', group: 'Users', defaultColumns: ['username', 'email', 'roles', 'enabled'] },
    auth: {
      // The username is the login identifier: matching emails too would let a username that equals
      // another account's email shadow that account at login.
      loginWithUsername: { allowEmailLogin: false, requireEmail: true },
      tokenExpiration: options.session.tokenTtl,
      cookies: { secure: true, sameSite: 'Lax' },
      maxLoginAttempts: 10,
      lockTime: 10 * 60 * 1000,
      // The JSON-LD API's session (JWT cookie from POST {api_prefix}/login) logs in to the admin panel too.
      strategies: [apiSessionStrategy(options)],
    },
    access: {
      admin: ({ req }) => isAdmin(req.user, hierarchy),
      read: ({ req }) => selfOrSuperAdmin({ req }),
      create: ({ req }) => options.users.allowRegistration || isSuperAdmin(req.user, hierarchy),
      update: ({ req, id }) => selfOrSuperAdmin({ req, id }),
      delete: ({ req }) => isSuperAdmin(req.user, hierarchy),
    },
    hooks: {
      afterLogout: [clearApiSessionCookies(options)],
      beforeDelete: [deleteRefreshTokens],
      beforeValidate: [emailNotTaken],
      beforeChange: [firstUserIsSuperAdmin],
      beforeLogin: [
        ({ user }) => {
          if ((user as { enabled?: boolean }).enabled === false) throw new AuthenticationError()
          return user
        },
      ],
    },
    fields: [
      {
        name: 'roles',
        type: 'select',
        hasMany: true,
        options: roleOptions,
        defaultValue: [ROLE_USER],
        access: { create: superAdminField, update: superAdminField },
      },
      {
        name: 'enabled',
        type: 'checkbox',
        defaultValue: true,
        access: { read: superAdminField, create: superAdminField, update: superAdminField },
      },
      {
        name: 'emailAddressVerified',
        type: 'checkbox',
        defaultValue: false,
        access: { create: superAdminField, update: superAdminField },
      },
      { name: 'newEmailAddress', type: 'email' },
    ],
    custom: { cwa },
  }
}

/**
 * The first account of an empty site (the admin panel's create-first-user
 * screen) becomes super admin: otherwise nobody could reach the admin panel.
 */
const firstUserIsSuperAdmin: CollectionBeforeChangeHook = async ({ data, operation, req }) => {
  // Only Payload's first-register operation: an open registration endpoint must never grant roles.
  if (operation !== 'create' || !/\/first-register(\?|$)/.test(req.pathname ?? req.url ?? '')) return data
  const { totalDocs } = await req.payload.count({ collection: 'users', req, overrideAccess: true })
  return totalDocs === 0 ? { ...data, roles: [ROLE_SUPER_ADMIN], enabled: true } : data
}

/**
 * A deleted user's refresh tokens go with it (their user column is required,
 * so the foreign key cannot just be cleared: the delete would fail).
 */
const deleteRefreshTokens: CollectionBeforeDeleteHook = async ({ id, req }) => {
  await req.payload.delete({ collection: 'refresh_tokens' as never, where: { user: { equals: id } }, req, overrideAccess: true, depth: 0 })
}

/**
 * A taken email is reported on the email (Payload's own check with
 * loginWithUsername blames the username for it).
 */
const emailNotTaken: CollectionBeforeValidateHook = async ({ data, originalDoc, req }) => {
  const email = typeof data?.email === 'string' ? data.email.trim().toLowerCase() : null
  if (!email || email === String(originalDoc?.email ?? '').toLowerCase()) return data
  const where: Where = originalDoc?.id ? { and: [{ email: { equals: email } }, { id: { not_equals: originalDoc.id } }] } : { email: { equals: email } }
  const { totalDocs } = await req.payload.count({ collection: 'users', where, req, overrideAccess: true })
  if (totalDocs > 0) throw new ValidationError({ errors: [{ path: 'email', message: 'This email address is already used.' }] })
  return data
}
