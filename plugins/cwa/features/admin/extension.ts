import type { HydraExtension } from '../../hydra/extension.js'
import { pageBuilderEndpoints } from './endpoints.js'
import { amendPageBuilderDocs } from './openapi.js'
import { previewEndpoints } from './previewLinks.js'

/** The page builder's endpoints, and the preview links' exchange when the front end takes them (`previewPath`). */
export const adminExtension: HydraExtension = {
  name: 'admin',
  endpoints: (_registry, options) => [
    ...pageBuilderEndpoints(),
    ...(options && options.frontEndUrl !== null && options.previewPath ? previewEndpoints() : []),
  ],
  openApi: amendPageBuilderDocs,
}
