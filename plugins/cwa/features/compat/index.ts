/** Compatibility profiles (`compat: 'cwa-nuxt'`): the API as the CWA Nuxt module expects it. */
import type { CwaFeature } from '../../hydra/feature.js'
import { compatExtension } from './extension.js'

export type { CompatProfile } from './options.js'

export const compatFeature: CwaFeature = {
  name: 'compat',
  extension: compatExtension,
}
