import type { CollectionConfig, FieldAccess, PayloadRequest } from 'payload'
import { type CoreContext, tableName } from '../../core/context.js'
import { ROLE_ADMIN, ROLE_SUPER_ADMIN, ROLE_USER } from '../../core/options.js'
import { isAdmin, isSuperAdmin } from '../../core/roles.js'
import type { CwaResourceMeta } from '../../core/types.js'
import { closedPasswordEndpoints } from './closedEndpoints.js'
import { deleteRefreshTokens, emailNotTaken, firstUserIsSuperAdmin } from './hooks/account.js'
import { noteSentFields } from './hooks/changes.js'
import { emailChangeRules } from './hooks/emailChange.js'
import { equalLoginTiming, userChecker } from './hooks/loginChecks.js'
import { notePasswordChange } from './hooks/password.js'
import {
  forgetCachedTokenState,
  forgetDeletedTokenState,
  tokenVersionField,
  tokenVersionRule,
} from './hooks/tokenVersion.js'
import { userWriteEffects } from './hooks/writeEffects.js'
import { apiSessionStrategy, clearApiSessionCookies, openApiSessionOnAdminLogin } from './sessionStrategy.js'
import { loginSucceeded, loginThrottle, sameLoginRefusal } from './throttle.js'

/**
 * The user resource: Payload auth (password hashing, admin login) with the
 * contract's fields. Stored roles are only the assigned ones; output expands
 * them through the hierarchy.
 */
/** A role in words: ROLE_SUPER_ADMIN is "Super admin", a site's own ROLE_EDITOR "Editor". */
export function roleLabel(role: string): string {
  const words = role
    .replace(/^ROLE_/, '')
    .replace(/_/g, ' ')
    .toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function usersCollection(ctx: Pick<CoreContext, 'options'>): CollectionConfig {
  const { options } = ctx
  const hierarchy = options.roleHierarchy
  const superAdminField: FieldAccess = ({ req }) => isSuperAdmin(req.user, hierarchy)
  const selfOrSuperAdmin = ({ req, id }: { req: Pick<PayloadRequest, 'user'>; id?: string | number }) => {
    const user = req.user
    if (!user) return false
    if (isSuperAdmin(user, hierarchy)) return true
    return id === undefined ? { id: { equals: user.id } } : String(id) === String(user.id)
  }
  const cwa: CwaResourceMeta = {
    kind: 'user',
    shortName: 'User',
    pathPrefix: '',
    segment: 'users',
    aliases: { emailAddress: 'email', plainPassword: 'password' },
    writeOnly: ['plainPassword'],
    search: ['username', 'email'],
    order: ['createdAt', 'username'],
  }
  // Shown only to a signed-in user: on the admin's first-user form (nobody signed in) the values shown would
  // not be the ones saved (the first user becomes an enabled super admin, hooks/account.ts).
  const signedIn = (_data: unknown, _siblingData: unknown, { user }: { user?: unknown }) => Boolean(user)
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
      // Payload's default lets any signed-in user unlock any account, which would undo the login lockout.
      unlock: ({ req }) => isSuperAdmin(req.user, hierarchy),
    },
    endpoints: closedPasswordEndpoints(options.apiPrefix),
    hooks: {
      afterLogout: [clearApiSessionCookies(options)],
      beforeDelete: [deleteRefreshTokens],
      // The throttle first: a throttled login costs no password hash.
      beforeOperation: [loginThrottle, equalLoginTiming, noteSentFields],
      afterLogin: [loginSucceeded, openApiSessionOnAdminLogin(options)],
      afterError: [sameLoginRefusal],
      // The email change rules first: they may turn a requested address into `email`, which must then be free.
      beforeValidate: [emailChangeRules(options), emailNotTaken],
      beforeChange: [firstUserIsSuperAdmin, notePasswordChange, tokenVersionRule],
      afterChange: [forgetCachedTokenState, userWriteEffects(options)],
      afterDelete: [forgetDeletedTokenState],
      beforeLogin: [userChecker(options)],
    },
    fields: [
      {
        name: 'roles',
        type: 'select',
        hasMany: true,
        // Stored as the contract's role names; the admin shows them in words (ROLE_SUPER_ADMIN: "Super admin").
        options: roleOptions.map((value) => ({ value, label: roleLabel(value) })),
        defaultValue: [ROLE_USER],
        access: { create: superAdminField, update: superAdminField },
        admin: { condition: signedIn },
      },
      {
        name: 'enabled',
        type: 'checkbox',
        defaultValue: true,
        access: { read: superAdminField, create: superAdminField, update: superAdminField },
        admin: { condition: signedIn },
      },
      {
        // Set by the verification and email change flows; a super admin may set it.
        name: 'emailAddressVerified',
        type: 'checkbox',
        // The initial state of a new account is set by hooks/emailChange (options decide it).
        defaultValue: false,
        access: { create: superAdminField, update: superAdminField },
      },
      // The pending email change (see hooks/emailChange); null cancels it.
      { name: 'newEmailAddress', type: 'email' },
      // Raised by every change that must end the JWTs issued so far (hooks/tokenVersion.ts).
      tokenVersionField,
    ],
    custom: { cwa },
  }
}
