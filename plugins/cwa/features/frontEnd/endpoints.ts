import type { Endpoint } from '../../hydra/endpoint.js'
import { pageDataMetadataDocs } from './openapi.js'
import { pageDataMetadataCollection } from './pageDataMetadata.js'

/** GET /_/page_data_metadatas (public: it describes types, no content). */
export function frontEndEndpoints(): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/_/page_data_metadatas',
      handler: async (ctx) => ({ status: 200, output: pageDataMetadataCollection(ctx) }),
      docs: pageDataMetadataDocs,
    },
  ]
}
