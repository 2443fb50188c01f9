/**
 * 'payload-cwa/next': the Next.js kit (nextKit/: previews of drafts, cache tags and revalidation, live refresh) and
 * the JSON-LD API as the exports of a Next.js catch-all route handler (Payload loaded on its first request only).
 */
export * from './nextKit/index.js'
export { createCwaNextHandler, type CwaNextRouteHandlers } from './server/next.js'
