/**
 * Server-side forms: typed form types, the formView of every Form, the
 * /submit endpoints and the built-in user forms (password_reset, register,
 * change_password, new_email_address).
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { formComponent } from './component.js'
import { formsExtension } from './extension.js'
import { formsOptions } from './options.js'
import { commands } from './commands/index.js'

export { choice, custom, email, length, notBlank, range, regex } from './constraints.js'
export { formComponent } from './component.js'
export { formsExtension } from './extension.js'
export { formTypeHash } from './cachePurge.js'
export { submit as submitForm } from './submit.js'
export { defineFormType } from './types.js'
export type * from './types.js'

export const formsFeature = {
  name: 'forms',
  options: formsOptions,
  types: (options) => (options.enabledComponents.form ? [formComponent()] : []),
  extension: formsExtension,
  commands,
} satisfies CwaFeature
