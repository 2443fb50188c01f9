import type { HydraExtension } from '../../hydra/extension.js'
import { pageBuilderEndpoints } from './endpoints.js'
import { amendPageBuilderDocs } from './openapi.js'

/** The page builder's endpoints. */
export const adminExtension: HydraExtension = {
  name: 'admin',
  endpoints: () => pageBuilderEndpoints(),
  openApi: amendPageBuilderDocs,
}
