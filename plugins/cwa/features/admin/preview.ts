import type { LivePreviewConfig, PayloadRequest, Where } from 'payload'
import { siteUrl } from './options.js'
import { previewLinkUrl } from './previewLinks.js'

type Doc = Record<string, unknown>

/** The path of the route of a page (`pages`) or page data record, read with the editor's access (null: none). */
export async function routePathOf(req: PayloadRequest, slug: string, id: unknown): Promise<string | null> {
  if (typeof id !== 'string' || !id) return null
  const where: Where =
    slug === 'pages'
      ? { page: { equals: id } }
      : { and: [{ 'pageData.value': { equals: id } }, { 'pageData.relationTo': { equals: slug } }] }
  const found = await req.payload.find({
    collection: 'routes',
    where,
    limit: 1,
    depth: 0,
    pagination: false,
    overrideAccess: false,
    user: req.user,
    req,
  })
  const path = (found.docs[0] as Doc | undefined)?.path
  return typeof path === 'string' ? path : null
}

/**
 * Payload's Live Preview of pages and page data: the front end at the
 * record's route. Without a route (a template, a page not routed yet) the
 * front end's home, so the panel still opens. With `previewPath`, through a
 * preview link (previewLinks.ts): the front end shows the drafts with the
 * editor's rights; without, the signed-in editor sees drafts there as the
 * front end shows them to an editor.
 */
export function livePreviewUrl(frontEndUrl: string, previewPath: string | null): NonNullable<LivePreviewConfig['url']> {
  return async ({ data, collectionConfig, req }) => {
    const path = (await routePathOf(req, collectionConfig?.slug ?? '', (data as Doc)?.id)) ?? '/'
    const link = previewPath ? await previewLinkUrl(req, frontEndUrl, previewPath, path) : null
    return link ?? siteUrl(frontEndUrl, path) ?? `${frontEndUrl}/`
  }
}
