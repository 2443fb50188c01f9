/** Serving the API: a Fetch API handler and its Next.js route-handler form (Express, an optional peer, has its own front door: 'payload-cwa/express'). */
export { createCwaHandler, type CwaFetchHandler, type CwaHandlerOptions } from './handler.js'
export { createCwaNextHandler, type CwaNextRouteHandlers } from './next.js'
export { payloadKeys, payloadRestHandler } from './payloadRest.js'
export { fetchHeaders } from './nodeRequest.js'
