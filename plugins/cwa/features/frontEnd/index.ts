/** Front ends on their own origin (the CWA Nuxt module): CORS, GET /_/page_data_metadatas. */
import type { CwaFeature } from '../../hydra/feature'
import { frontEndExtension } from './extension'

export { isCorsOrigin } from './cors'

export const frontEndFeature: CwaFeature = {
  name: 'frontEnd',
  extension: frontEndExtension,
}
