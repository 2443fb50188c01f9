/**
 * The content model: the positions of components, as the JSON-LD API
 * serves and writes them beyond their own fields (positions bound to page
 * data, the positions a new component goes to). Its collections (layouts,
 * pages, groups, positions) are the core's (core/collections/); this
 * feature is their behaviour in the pipeline.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { contentModelExtension } from './extension.js'

export { currentPageData, type CurrentPageData } from './currentPageData.js'
export { boundComponent } from './dynamicPosition.js'

/**
 * Listed first in features.ts and after nothing, so its hooks run before
 * every other feature's, as they did when they were the format layer's
 * built-ins: other features' normalizeItem read what it resolves (the
 * compat profile's draft positions read a bound position's component).
 */
export const contentModelFeature = {
  name: 'contentModel',
  extension: contentModelExtension,
} satisfies CwaFeature
