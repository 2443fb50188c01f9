import { defineOptions, group, option, type OptionsInput, type OptionsResolved } from '../../core/defineOptions.js'

/** Options of the Collection component feature: its switch under `enabledComponents`, default on (core/defineOptions.ts). */

export const collectionComponentOptions = defineOptions({
  enabledComponents: group('Switches of the built-in component types.', {
    collection: option.boolean({ default: true, doc: 'The built-in Collection component type.' }),
  }),
})

type Switch = NonNullable<OptionsInput<typeof collectionComponentOptions>['enabledComponents']>
type ResolvedSwitch = OptionsResolved<typeof collectionComponentOptions>['enabledComponents']
declare module '../../core/options.js' {
  interface EnabledComponents extends Switch {}
  interface ResolvedEnabledComponents extends ResolvedSwitch {}
}
