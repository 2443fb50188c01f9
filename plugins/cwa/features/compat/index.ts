/** Compatibility profiles (`compat: 'cwa-nuxt'`): the API as the CWA Nuxt module expects it. */
import type { CwaFeature } from '../../hydra/feature'
import { compatExtension } from './extension'

export type { CompatProfile } from './options'

export const compatFeature: CwaFeature = {
  name: 'compat',
  extension: compatExtension,
}
