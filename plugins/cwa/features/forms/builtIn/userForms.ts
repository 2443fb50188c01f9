/**
 * The built-in forms of the user flows (reference-deployment.md): ordinary
 * form types of this framework, reachable by fixed ids
 * (/component/forms/password_reset...). Each submit hands over to the
 * users plugin, which owns the rules and side effects (tokens, emails).
 */
import { validations } from 'payload'
import type { HydraContext } from '../../../hydra/context.js'
import { violation, ViolationError } from '../../../hydra/errors.js'
import { embedDocument } from '../../../hydra/embedded.js'
import { createItem } from '../../../hydra/operations.js'
import { denyAccessUnlessGranted } from '../../../hydra/security.js'
import { internalFind } from '../../../core/utils/internalFind.js'
import { isSuperAdmin } from '../../../core/roles.js'
import { requestEmailChange, resetPassword } from '../../users/index.js'
import { custom } from '../constraints.js'
import { defineFormType, type FormTypeDefinition, type RepeatedField } from '../types.js'
import { checkCurrentPassword, type PasswordCheck } from './password.js'

/**
 * The password rule of the users resource: Payload's own password
 * validation, which the user collection applies on every create and
 * password change (same limits, same message).
 */
const usersPasswordRule = custom(
  (value, { ctx }) => {
    const result = validations.password(value as string, {
      name: 'password',
      type: 'text',
      required: true,
      req: ctx.req,
      data: {},
      siblingData: {},
      blockData: {},
      path: ['password'],
      preferences: { fields: {} },
      event: 'submit',
    })
    return typeof result === 'string' ? result : null
  },
  { code: 'invalid_password' },
)

/** A new password typed twice, checked with the users resource's rule. */
function newPasswordField(first = 'New password', second = 'Repeat new password'): RepeatedField {
  return {
    name: 'plainPassword',
    type: 'repeated',
    inner: 'password',
    required: true,
    label: first,
    first: { label: first },
    second: { label: second },
    invalidMessage: 'The password fields must match.',
    constraints: [usersPasswordRule],
  }
}

/** A form type's own rule (its submit endpoint is public: the form named decides), through the one refusal helper. */
const signedIn = (ctx: HydraContext) => denyAccessUnlessGranted(ctx, Boolean(ctx.user))

const text = (value: unknown) => (typeof value === 'string' ? value : '')

export const PasswordResetFormType = defineFormType({
  className: 'PasswordResetFormType',
  formName: 'password_reset',
  fields: [
    { name: 'username', type: 'text', required: true },
    { name: 'token', type: 'hidden', required: true },
    newPasswordField(),
  ],
  // The emailed link carries username and token: GET ?username=abc&token=123 pre-fills them.
  initialData: (ctx) => ({ username: ctx.query.get('username'), token: ctx.query.get('token') }),
  // A bad, used or expired token is the users plugin's 404, passed through as is.
  onSubmit: ({ ctx, data }) =>
    resetPassword(ctx, {
      username: text(data.username),
      token: text(data.token),
      plainPassword: text(data.plainPassword),
    }),
  violationPaths: { password: 'plainPassword' },
})

export const NewEmailAddressFormType = defineFormType({
  className: 'NewEmailAddressFormType',
  formName: 'new_email_address',
  fields: [{ name: 'newEmailAddress', type: 'email', label: 'New email address' }],
  authorize: signedIn,
  // The caller's pending address, read from the database (the session only carries the JWT's claims).
  initialData: async (ctx) => {
    if (!ctx.user) return {}
    const [user] = await internalFind(ctx.payload, {
      collection: 'users',
      where: { id: { equals: ctx.user.id } },
      select: { newEmailAddress: true },
      limit: 1,
      req: ctx.req,
    })
    return { newEmailAddress: user?.newEmailAddress ?? null }
  },
  // An empty submit cancels a pending change.
  onSubmit: ({ ctx, data }) =>
    requestEmailChange(ctx, String(ctx.user!.id), (data.newEmailAddress as string | null) || null),
  violationPaths: { email: 'newEmailAddress' },
})

export const UserRegisterFormType = defineFormType({
  className: 'UserRegisterFormType',
  formName: 'user_register',
  fields: [
    { name: 'username', type: 'text', required: true },
    { name: 'emailAddress', type: 'email', required: true, label: 'Email address' },
    newPasswordField('Password', 'Repeat password'),
  ],
  // The users resource's rule: registration only where POST /users is open to the caller.
  authorize: (ctx) => {
    const open = ctx.options.users.allowRegistration || isSuperAdmin(ctx.user, ctx.options.roleHierarchy)
    // 403 to anonymous callers too, as POST /users answers while registration is closed.
    denyAccessUnlessGranted(ctx, open, undefined, { anonymous: 403 })
  },
  // Created through the users resource itself (its validation, hooks and welcome email); the new user is the result.
  onSubmit: async (event) => {
    const users = event.ctx.registry.bySlug('users')!
    const { data } = event
    const created = await createItem(
      users,
      { username: data.username, emailAddress: data.emailAddress, plainPassword: data.plainPassword },
      event.ctx,
    )
    // The created user's item, normalized by the pipeline as the submit's answer.
    event.result = created.item ? embedDocument(created.item) : undefined
  },
  violationPaths: { email: 'emailAddress', password: 'plainPassword' },
})

const PASSWORD_REFUSALS: Record<Exclude<PasswordCheck, 'ok'>, string> = {
  wrong: "This value should be the user's current password.",
  locked: 'Too many failed attempts: this account is locked for a while.',
}

/**
 * The current password is checked on the full submit (POST) only, and
 * counted like a login attempt (see checkCurrentPassword): a partial submit
 * (PATCH) must not be a free password oracle. A PATCH therefore only checks
 * the field is filled in.
 */
export const PasswordUpdateFormType = defineFormType({
  className: 'PasswordUpdateFormType',
  formName: 'password_update',
  fields: [{ name: 'oldPassword', type: 'password', required: true, label: 'Current password' }, newPasswordField()],
  authorize: signedIn,
  onSubmit: async ({ ctx, data }) => {
    const check = await checkCurrentPassword(ctx, text(data.oldPassword))
    if (check !== 'ok') throw new ViolationError([violation('oldPassword', PASSWORD_REFUSALS[check], 'user_password')])
    await ctx.payload.update({
      collection: 'users',
      id: String(ctx.user!.id),
      // The right current password ends the count of failed attempts, as a login does.
      data: { password: data.plainPassword, loginAttempts: 0, lockUntil: null },
      req: ctx.req,
      overrideAccess: true,
      depth: 0,
    })
  },
  violationPaths: { password: 'plainPassword' },
})

/** Built-in forms by fixed id (the Form id in their IRI). */
export const BUILT_IN_FORMS: Record<string, FormTypeDefinition> = {
  password_reset: PasswordResetFormType,
  register: UserRegisterFormType,
  change_password: PasswordUpdateFormType,
  new_email_address: NewEmailAddressFormType,
}
