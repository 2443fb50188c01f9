import type { HydraExtension } from '../../hydra/extension.js'
import { orphanEndpoints } from './endpoints.js'
import { amendOrphanDocs } from './openapi.js'

/** The orphaned-resource endpoints and GET /_/usage. */
export const orphansExtension: HydraExtension = {
  name: 'orphans',
  endpoints: () => orphanEndpoints(),
  openApi: amendOrphanDocs,
}
