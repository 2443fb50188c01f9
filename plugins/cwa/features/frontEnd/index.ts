/** Front ends: CORS for those on their own origin, GET /_/page_data_metadatas, and `cwa:client-types`. */
import type { CwaFeature } from '../../hydra/feature.js'
import { commands } from './commands/index.js'
import { frontEndExtension } from './extension.js'
import { frontEndOptions } from './options.js'

export { isCorsOrigin } from './cors.js'

export const frontEndFeature = {
  name: 'frontEnd',
  options: frontEndOptions,
  extension: frontEndExtension,
  commands,
} satisfies CwaFeature
