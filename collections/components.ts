import { defineComponent, relationId } from 'payload-cwa'
import { type CollectionAfterReadHook, createDataloaderCacheKey } from 'payload'

/** Reference site component types (reference-deployment.md, "Component types"). */

export const HtmlContent = defineComponent({
  shortName: 'HtmlContent',
  timestamped: true,
  mercure: true,
  publishable: { requiredOnPublish: ['html'] }, // group HtmlContent:published
  fields: [{ name: 'html', type: 'code', admin: { language: 'html' } }],
})

export const Image = defineComponent({
  shortName: 'Image',
  mercure: true,
  publishable: true,
  uploadable: { file: { adapter: 'local', urlGenerator: 'public', imagineFilters: ['thumbnail'], maxSize: '5M', maxPixels: 40_000_000, property: 'filename' } },
  fields: [{ name: 'filename', type: 'text', admin: { readOnly: true } }],
})

/**
 * url is read-only: rawPath when set, else the path of the linked route (as
 * the caller may see it). Routes load through Payload's request dataloader,
 * so a collection of links costs one extra query, not one per link.
 */
const navigationUrl: CollectionAfterReadHook = async ({ doc, req }) => {
  if (doc.rawPath) return { ...doc, url: doc.rawPath }
  const routeId = relationId(doc.route)
  if (!routeId) return { ...doc, url: null }
  const key = createDataloaderCacheKey({
    collectionSlug: 'routes',
    currentDepth: 0,
    depth: 0,
    docID: routeId,
    draft: false,
    fallbackLocale: req.fallbackLocale!,
    locale: req.locale!,
    overrideAccess: false,
    select: { path: true },
    showHiddenFields: false,
    transactionID: req.transactionID!,
  })
  const route = await req.payloadDataLoader.load(key).catch(() => null)
  return { ...doc, url: (route as { path?: string } | null)?.path ?? null }
}

export const NavigationLink = defineComponent({
  shortName: 'NavigationLink',
  publishable: {
    requiredOnPublish: ['label'],
    // Publishing needs somewhere to go: a route or a raw path (violation on route).
    validate: (doc) => (doc.route || doc.rawPath ? [] : [{ propertyPath: 'route', message: 'A route or a rawPath is required to publish.' }]),
  },
  fields: [
    { name: 'label', type: 'text' },
    { name: 'route', type: 'relationship', relationTo: 'routes' },
    { name: 'rawPath', type: 'text' },
    { name: 'url', type: 'text', virtual: true, admin: { readOnly: true } },
  ],
  collection: { hooks: { afterRead: [navigationUrl] } },
})

export const Title = defineComponent({
  shortName: 'Title',
  timestamped: true,
  fields: [{ name: 'title', type: 'text', required: true }],
})

export const FileDownload = defineComponent({
  shortName: 'FileDownload',
  publishable: true,
  explicitAllowOnly: true,
  uploadable: {
    file: { adapter: 'local', urlGenerator: 'api', maxSize: '20M', property: 'filename' },
    preview: { adapter: 'local', imagineFilters: ['thumbnail'], requiredOnPublish: true, property: 'previewFilename' },
  },
  fields: [
    { name: 'filename', type: 'text', admin: { readOnly: true } },
    { name: 'previewFilename', type: 'text', admin: { readOnly: true } },
  ],
})

export const siteComponents = [HtmlContent, Image, NavigationLink, Title, FileDownload]
