/**
 * The Next.js kit (payload-cwa/next): previews of drafts for editors (draft mode through a one-minute link), pages
 * cached under the API's cache tags and expired by its revalidation requests. Its client component (live refresh) is
 * 'payload-cwa/next/client': a route handler importing this entry must not load a client module. No Payload here:
 * a Next.js app on another server than the API uses it as well.
 */
export { cwaCacheTags, tagCwaPage } from './cacheTags.js'
export {
  CWA_PREVIEW_COOKIE,
  createCwaPreviewExitRoute,
  createCwaPreviewRoute,
  type CwaPreviewRouteOptions,
  cwaPreviewHeaders,
} from './preview.js'
export { createCwaRevalidateRoute, type CwaRevalidateRouteOptions, verifyRevalidation } from './revalidate.js'
