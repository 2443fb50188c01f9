/** Users: the users collection, its e-mail flows (verification, password reset, e-mail change) and their endpoints. */
import type { CwaFeature } from '../../hydra/feature'
import { usersCollection } from './collection'
import { usersExtension } from './extension'
import { userTokensCollection } from './tokens/collection'

export { usersExtension } from './extension'
export { usersCollection } from './collection'
export { userTokensCollection } from './tokens/collection'
export { requestEmailChange } from './flows/newEmail'
export { resetPassword } from './flows/passwordReset'
export { assertSubmitAllowed, countFailedPasswordCheck, FORM_SUBMIT_THROTTLE, LOGIN_THROTTLE } from './throttle'

/** A site may declare its own `users` collection; the feature adds one otherwise. */
export const usersFeature: CwaFeature = {
  name: 'users',
  collections: (ctx, declared) => [...(declared.some((c) => c.slug === 'users') ? [] : [usersCollection(ctx)]), userTokensCollection(ctx)],
  extension: usersExtension,
}
