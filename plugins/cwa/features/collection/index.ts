/** The Collection component: a read-only view of another resource's collection. */
import type { CwaFeature } from '../../hydra/feature'
import { collectionComponent } from './component'
import { collectionExtension } from './extension'

export { collectionComponent } from './component'

export const collectionFeature: CwaFeature = {
  name: 'collection',
  types: (options) => (options.enabledComponents.collection ? [collectionComponent()] : []),
  extension: collectionExtension,
}
