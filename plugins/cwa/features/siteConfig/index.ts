/** Site configuration parameters: the contract's stored `{key, value}` settings a front end reads at start. */
import type { CwaFeature } from '../../hydra/feature.js'
import { siteConfigParametersCollection } from './collection.js'
import { siteConfigEndpoints } from './endpoints.js'

export { SITE_CONFIG_SLUG } from './collection.js'

export const siteConfigFeature: CwaFeature = {
  name: 'siteConfig',
  collections: (ctx) => [siteConfigParametersCollection(ctx)],
  extension: { name: 'site-config', endpoints: siteConfigEndpoints },
}
