/** Compatibility profiles (`compat: 'cwa-nuxt'`): the API as the CWA Nuxt module expects it. */
import type { CwaFeature } from '../../hydra/feature.js'
import { compatExtension } from './extension.js'
import { compatOptions } from './options.js'

export type { CompatProfile } from './options.js'

export const compatFeature = {
  name: 'compat',
  // Its draft positions read the component a position bound to page data resolves to (contentModel's hook).
  after: ['contentModel'],
  options: compatOptions,
  extension: compatExtension,
} satisfies CwaFeature
