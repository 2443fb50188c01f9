/** The Collection component: a read-only view of another resource's collection. */
import type { CwaFeature } from '../../hydra/feature.js'
import { collectionComponent } from './component.js'
import { collectionExtension } from './extension.js'
import { collectionComponentOptions } from './options.js'

export { collectionComponent } from './component.js'

export const collectionFeature = {
  name: 'collectionComponent',
  options: collectionComponentOptions,
  types: (options) => (options.enabledComponents.collection ? [collectionComponent()] : []),
  extension: collectionExtension,
} satisfies CwaFeature
