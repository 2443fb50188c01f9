import { getOptions } from '../../core/registry.js'
import type { HydraExtension, ResponseInfo } from '../../hydra/extension.js'
import { httpCacheEndpoints } from './endpoints.js'
import { anonymousCacheLifetime } from './lifetime.js'
import { amendHttpCacheDocs } from './openapi.js'

/** The cache tags header of a read: the IRIs its body names (recorded by the pipeline as it formatted it) and the shared state it depended on. */
function tagResponse(response: ResponseInfo): void {
  const header = getOptions(response.payload.config).httpCache.tagHeader
  if (
    !header ||
    (response.method !== 'GET' && response.method !== 'HEAD') ||
    response.status !== 200 ||
    response.body === undefined
  )
    return
  const tags = [...(response.tags ?? []), ...(response.dependencies ?? [])]
  if (tags.length > 0) response.headers.set(header, tags.join(' '))
}

export const httpCacheExtension: HydraExtension = {
  name: 'httpCache',
  endpoints: httpCacheEndpoints,
  openApi: amendHttpCacheDocs,
  async decorateResponse(response) {
    tagResponse(response)
    await anonymousCacheLifetime(response)
  },
}
