/** Users: the users collection, its e-mail flows (verification, password reset, e-mail change) and their endpoints. */
import type { CwaFeature } from '../../hydra/feature.js'
import { appUsersOf, mergeAppUsers } from './appUsers.js'
import { usersCollection } from './collection.js'
import { usersOptions } from './options.js'
import { usersExtension } from './extension.js'
import { userTokensCollection } from './tokens/collection.js'
import { commands } from './commands/index.js'

export { usersExtension } from './extension.js'
export { usersCollection } from './collection.js'
export { userTokensCollection } from './tokens/collection.js'
export { requestEmailChange } from './flows/newEmail.js'
export { resetPassword } from './flows/passwordReset.js'
export { assertSubmitAllowed, countFailedPasswordCheck, FORM_SUBMIT_THROTTLE, LOGIN_THROTTLE } from './throttle.js'

/**
 * The users collection: the plugin's, or the app's own `users` (Payload's templates have one) merged with it
 * (appUsers.ts); a `users` built on the plugin's (its meta kept) is the app's to keep as it is.
 */
export const usersFeature = {
  name: 'users',
  options: usersOptions,
  collections: (ctx, declared) => {
    const app = appUsersOf(declared)
    const own = declared.some((c) => c.slug === 'users') && !app
    return [...(own ? [] : [app ? mergeAppUsers(app, ctx) : usersCollection(ctx)]), userTokensCollection(ctx)]
  },
  extension: usersExtension,
  commands,
} satisfies CwaFeature
