/** Site configuration parameters: the contract's stored `{key, value}` settings a front end reads at start. */
import type { CwaFeature } from '../../hydra/feature'
import { siteConfigParametersCollection } from './collection'
import { siteConfigEndpoints } from './endpoints'

export { SITE_CONFIG_SLUG } from './collection'

export const siteConfigFeature: CwaFeature = {
  name: 'siteConfig',
  collections: (ctx) => [siteConfigParametersCollection(ctx)],
  extension: { name: 'site-config', endpoints: siteConfigEndpoints },
}
