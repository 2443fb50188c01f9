import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'
import type { FormSuccessListener, FormTypeDefinition } from './types.js'

/**
 * Options of the forms feature, declared once (core/defineOptions.ts): the
 * site's form types and success listeners (`forms`), and the switch of the
 * built-in Form component (`enabledComponents.form`).
 */

export const formsOptions = defineOptions({
  forms: group('Form types of the site and success listeners ([forms](forms.md)).', {
    types: option<FormTypeDefinition[]>({
      type: 'FormTypeDefinition[]',
      default: [],
      doc: 'Form types of the site, registered by class name (the built-in user forms are added by the registry).',
      resolve: (given) => given ?? [],
    }),
    listeners: option<FormSuccessListener[]>({
      type: 'FormSuccessListener[]',
      default: [],
      doc: "Success listeners run for every form after the type's own onSubmit.",
      resolve: (given) => given ?? [],
    }),
  }),
  enabledComponents: group('Switches of the built-in component types.', {
    form: option.boolean({
      default: true,
      doc: 'The built-in Form component type (`false` removes the Form resource and every form endpoint).',
    }),
  }),
})

type Declared = typeof formsOptions
/** The `forms` key of the plugin options. */
export type FormsOptions = NonNullable<OptionsInput<Declared>['forms']>

type Switch = NonNullable<OptionsInput<Declared>['enabledComponents']>
type ResolvedSwitch = OptionsResolved<Declared>['enabledComponents']

declare module '../../core/options.js' {
  interface CwaPluginOptions extends Pick<OptionsInput<Declared>, 'forms'> {}
  interface ResolvedCwaOptions extends Pick<OptionsResolved<Declared>, 'forms'> {}
  interface EnabledComponents extends Switch {}
  interface ResolvedEnabledComponents extends ResolvedSwitch {}
}
