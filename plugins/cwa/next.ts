/** 'payload-cwa/next': the JSON-LD API as the exports of a Next.js catch-all route handler. */
export { createCwaNextHandler, type CwaNextRouteHandlers } from './server/next.js'
