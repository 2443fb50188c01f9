import type { HydraExtension } from '../../hydra/extension'
import { pageBuilderEndpoints } from './endpoints'
import { amendPageBuilderDocs } from './openapi'

/** The page builder's endpoints. */
export const adminExtension: HydraExtension = {
  name: 'admin',
  endpoints: () => pageBuilderEndpoints(),
  openApi: amendPageBuilderDocs,
}
