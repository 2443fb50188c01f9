import type { HydraExtension } from '../../hydra/extension'
import { orphanEndpoints } from './endpoints'
import { amendOrphanDocs } from './openapi'

/** The orphaned-resource endpoints and GET /_/usage. */
export const orphansExtension: HydraExtension = {
  name: 'orphans',
  endpoints: () => orphanEndpoints(),
  openApi: amendOrphanDocs,
}
