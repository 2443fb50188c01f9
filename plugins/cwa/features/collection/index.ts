/** The Collection component: a read-only view of another resource's collection. */
import type { CwaFeature } from '../../hydra/feature.js'
import { collectionComponent } from './component.js'
import { collectionExtension } from './extension.js'

export { collectionComponent } from './component.js'

export const collectionFeature: CwaFeature = {
  name: 'collection',
  types: (options) => (options.enabledComponents.collection ? [collectionComponent()] : []),
  extension: collectionExtension,
}
