/**
 * Server-side forms: typed form types, the formView of every Form, the
 * /submit endpoints and the built-in user forms (password_reset, register,
 * change_password, new_email_address).
 */
import type { CwaFeature } from '../../hydra/feature'
import { formComponent } from './component'
import { formsExtension } from './extension'

export { choice, custom, email, length, notBlank, range, regex } from './constraints'
export { formComponent } from './component'
export { formsExtension } from './extension'
export { formTypeHash, purgeFormCache, type FormCachePurgeResult } from './cachePurge'
export { submit as submitForm } from './submit'
export { persistSubmission } from './persist'
export { defineFormType } from './types'
export type * from './types'

export const formsFeature: CwaFeature = {
  name: 'forms',
  types: (options) => (options.enabledComponents.form ? [formComponent()] : []),
  extension: formsExtension,
}
