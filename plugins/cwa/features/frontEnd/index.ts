/** Front ends on their own origin (the CWA Nuxt module): CORS, GET /_/page_data_metadatas. */
import type { CwaFeature } from '../../hydra/feature.js'
import { frontEndExtension } from './extension.js'
import { frontEndOptions } from './options.js'

export { isCorsOrigin } from './cors.js'

export const frontEndFeature = {
  name: 'frontEnd',
  options: frontEndOptions,
  extension: frontEndExtension,
} satisfies CwaFeature
