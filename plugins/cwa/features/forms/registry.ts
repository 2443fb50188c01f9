import type { ResolvedCwaOptions } from '../../core/options.js'
import { BUILT_IN_FORMS } from './builtIn/userForms.js'
import type { FormSuccessListener, FormTypeDefinition } from './types.js'

export interface FormTypeRegistry {
  /** Registered form types by class name (the site's and the built-in user forms). */
  types: Map<string, FormTypeDefinition>
  /** Success listeners of the plugin options. */
  listeners: FormSuccessListener[]
}

const cache = new WeakMap<object, FormTypeRegistry>()

export const formsOptionsOf = (options: Pick<ResolvedCwaOptions, 'forms'>) => options.forms

/** The form types of a resolved plugin configuration (cached per configuration). */
export function formTypeRegistry(options: Pick<ResolvedCwaOptions, 'forms'>): FormTypeRegistry {
  let registry = cache.get(options)
  if (!registry) {
    const { types, listeners } = formsOptionsOf(options)
    const map = new Map<string, FormTypeDefinition>()
    for (const type of [...Object.values(BUILT_IN_FORMS), ...types]) {
      const other = map.get(type.className)
      if (other && other !== type) throw new Error(`Two form types are registered as ${type.className}`)
      map.set(type.className, type)
    }
    registry = { types: map, listeners }
    cache.set(options, registry)
  }
  return registry
}

/** The built-in form of a fixed id (password_reset, register...), if any. */
export function builtInForm(id: string): FormTypeDefinition | undefined {
  return Object.hasOwn(BUILT_IN_FORMS, id) ? BUILT_IN_FORMS[id] : undefined
}
