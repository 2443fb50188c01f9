import type { ConfigSource, CwaFetchHandler } from './handler.js'

export interface CwaNextRouteHandlers {
  GET: CwaFetchHandler
  HEAD: CwaFetchHandler
  POST: CwaFetchHandler
  PATCH: CwaFetchHandler
  PUT: CwaFetchHandler
  DELETE: CwaFetchHandler
  OPTIONS: CwaFetchHandler
}

/**
 * The JSON-LD API as the exports of a Next.js catch-all route handler: in
 * an app on Payload's Next.js template, one file
 * `app/(cwa)/%5Fapi/[[...path]]/route.ts` serves the API:
 *
 *   import config from '@payload-config'
 *   import { createCwaNextHandler } from 'payload-cwa'
 *   export const { GET, HEAD, POST, PATCH, PUT, DELETE, OPTIONS } = createCwaNextHandler(config)
 *
 * The folder is the API prefix (`apiPrefix`, default `/_api`; Next.js
 * treats folders starting with `_` as private, so it is spelled `%5Fapi`).
 */
export function createCwaNextHandler(config: ConfigSource): CwaNextRouteHandlers {
  // Loaded on the first request: payload-cwa/next is also the Next.js kit of apps with no Payload of their own.
  let loaded: Promise<CwaFetchHandler> | undefined
  const handler: CwaFetchHandler = async (request) => {
    loaded ??= import('./handler.js').then(({ createCwaHandler }) => createCwaHandler({ config }))
    return (await loaded)(request)
  }
  return { GET: handler, HEAD: handler, POST: handler, PATCH: handler, PUT: handler, DELETE: handler, OPTIONS: handler }
}
