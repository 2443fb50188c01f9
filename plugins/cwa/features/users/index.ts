/** Users: the users collection, its e-mail flows (verification, password reset, e-mail change) and their endpoints. */
import type { CwaFeature } from '../../hydra/feature.js'
import { usersCollection } from './collection.js'
import { resolveUsersOptions, usersOptionKeys } from './options.js'
import { usersExtension } from './extension.js'
import { userTokensCollection } from './tokens/collection.js'

export { usersExtension } from './extension.js'
export { usersCollection } from './collection.js'
export { userTokensCollection } from './tokens/collection.js'
export { requestEmailChange } from './flows/newEmail.js'
export { resetPassword } from './flows/passwordReset.js'
export { assertSubmitAllowed, countFailedPasswordCheck, FORM_SUBMIT_THROTTLE, LOGIN_THROTTLE } from './throttle.js'

/** A site may declare its own `users` collection; the feature adds one otherwise. */
export const usersFeature = {
  name: 'users',
  options: { keys: usersOptionKeys, resolve: resolveUsersOptions },
  collections: (ctx, declared) => [
    ...(declared.some((c) => c.slug === 'users') ? [] : [usersCollection(ctx)]),
    userTokensCollection(ctx),
  ],
  extension: usersExtension,
} satisfies CwaFeature
