/** Serving the API: a Fetch API handler, its Next.js route-handler form, and Express (with Payload's REST API). */
export { createCwaHandler, type CwaFetchHandler, type CwaHandlerOptions } from './handler'
export { createCwaNextHandler, type CwaNextRouteHandlers } from './next'
export { type AppOptions, createApp, cwaExpress } from './express'
export { payloadKeys, payloadRestHandler } from './payloadRest'
export { fetchHeaders } from './nodeRequest'
