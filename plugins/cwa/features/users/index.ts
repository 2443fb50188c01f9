/** Users: the users collection, its e-mail flows (verification, password reset, e-mail change) and their endpoints. */
export { usersExtension } from './extension'
export { usersCollection } from './collection'
export { userTokensCollection } from './tokens/collection'
export { requestEmailChange } from './flows/newEmail'
export { resetPassword } from './flows/passwordReset'
