/** Serving the API: a Fetch API handler, its Next.js route-handler form, and Express (with Payload's REST API). */
export { createCwaHandler, type CwaFetchHandler, type CwaHandlerOptions } from './handler.js'
export { createCwaNextHandler, type CwaNextRouteHandlers } from './next.js'
export { type AppOptions, createApp, cwaExpress } from './express.js'
export { payloadKeys, payloadRestHandler } from './payloadRest.js'
export { fetchHeaders } from './nodeRequest.js'
