/** Compatibility profiles (`compat: 'cwa-nuxt'`): the API as the CWA Nuxt module expects it. */
import type { CwaFeature } from '../../hydra/feature.js'
import { compatExtension } from './extension.js'
import { compatOptionKeys, resolveCompatOptions } from './options.js'

export type { CompatProfile } from './options.js'

export const compatFeature = {
  name: 'compat',
  // Its draft positions read the component a position bound to page data resolves to (contentModel's hook).
  after: ['contentModel'],
  options: { keys: compatOptionKeys, resolve: resolveCompatOptions },
  extension: compatExtension,
} satisfies CwaFeature
