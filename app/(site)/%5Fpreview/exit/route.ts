/* /_preview/exit?path=/blog: the published site again (draft mode off, the preview token's cookie gone). */
import { createCwaPreviewExitRoute } from 'payload-cwa/next'

export const { GET } = createCwaPreviewExitRoute()
