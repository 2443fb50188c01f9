/*
 * /_preview: the admin panel's Live Preview opens it with a one-minute link (the API's `previewPath`); it turns draft
 * mode on with a token that reads drafts with the editor's rights, then shows the page (payload-cwa/next).
 */
import { createCwaPreviewRoute } from 'payload-cwa/next'
import { apiUrlFor, inProcessFetch } from '../siteApi'

export const { GET } = createCwaPreviewRoute({
  apiUrl: (request) => apiUrlFor(request.headers.get('host')),
  fetch: inProcessFetch,
})
