import type { OptionKeys } from '../../core/optionKeys.js'
import type { CwaPluginOptions, EnabledComponents } from '../../core/options.js'

/** Options of the Collection component feature: its switch under `enabledComponents`, default on. */

declare module '../../core/options.js' {
  interface EnabledComponents {
    /** The built-in Collection component type. Default true. */
    collection?: boolean
  }
  interface ResolvedEnabledComponents {
    collection: boolean
  }
}

/** The key of this feature under `enabledComponents`. */
export const collectionComponentKeys: OptionKeys<Pick<EnabledComponents, 'collection'>> = { collection: true }

export function resolveCollectionComponentSwitch(options: CwaPluginOptions): { collection: boolean } {
  return { collection: options.enabledComponents?.collection ?? true }
}
