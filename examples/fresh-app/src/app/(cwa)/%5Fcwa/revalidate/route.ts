/*
 * The API's revalidation requests (payload-cwa's `httpCache.revalidateUrl`, here CWA_REVALIDATE_URL): each write's
 * cache tags, signed with CWA_REVALIDATE_SECRET; the pages cached under them expire at once.
 */
import { createCwaRevalidateRoute } from 'payload-cwa/next'

export const { POST } = createCwaRevalidateRoute({ secret: process.env.CWA_REVALIDATE_SECRET })
