import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, EnabledComponents, ResolvedCwaOptions } from '../../core/options.js'
import type { FormsOptions, FormSuccessListener, FormTypeDefinition } from './types.js'

/**
 * Options of the forms feature and their defaults, in one place: the
 * site's form types and success listeners (`forms`), and the switch of the
 * built-in Form component (`enabledComponents.form`).
 */

export interface ResolvedFormsOptions {
  /** The site's form types (the built-in user forms are added by the registry). */
  types: FormTypeDefinition[]
  /** Success listeners run for every form after the type's own onSubmit. */
  listeners: FormSuccessListener[]
}

declare module '../../core/options.js' {
  interface CwaPluginOptions {
    /** Form types of the site and success listeners. */
    forms?: FormsOptions
  }
  interface ResolvedCwaOptions {
    forms: ResolvedFormsOptions
  }
  interface EnabledComponents {
    /** The built-in Form component type. Default true. */
    form?: boolean
  }
  interface ResolvedEnabledComponents {
    form: boolean
  }
}

/** Keys of `forms` (types and listeners are the site's own lists: not checked further). */
export const formsOptionKeys: OptionKeys<Pick<CwaPluginOptions, 'forms'>> = {
  forms: { types: true, listeners: true },
}

/** The key of this feature under `enabledComponents`. */
export const formComponentKeys: OptionKeys<Pick<EnabledComponents, 'form'>> = { form: true }

export function resolveFormsOptions(options: CwaPluginOptions): Pick<ResolvedCwaOptions, 'forms'> {
  return { forms: { types: options.forms?.types ?? [], listeners: options.forms?.listeners ?? [] } }
}

export function resolveFormComponentSwitch(options: CwaPluginOptions): { form: boolean } {
  return { form: options.enabledComponents?.form ?? true }
}
