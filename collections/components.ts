import { defineComponent, relationId } from 'payload-cwa'
import { type CollectionAfterReadHook, createDataloaderCacheKey } from 'payload'
import { htmlContentSync } from './richText/htmlContentSync'

/** Reference site component types (reference-deployment.md, "Component types"). */

export const HtmlContent = defineComponent({
  shortName: 'HtmlContent',
  adminIcon: 'text',
  timestamped: true,
  mercure: true,
  publishable: { requiredOnPublish: ['html'] }, // group HtmlContent:published
  // The editor state is the admin panel's; front ends read and write `html` (collections/richText/htmlContentSync.ts).
  hidden: ['content'],
  fields: [
    // The site's editor (Lexical, payload.config.ts `editor`): no asset from a CDN, unlike the code field.
    { name: 'content', type: 'richText', label: 'Content' },
    {
      name: 'html',
      type: 'textarea',
      label: 'HTML',
      // No text limit of its own (Payload's default is 40,000 characters): the request body limit bounds it, as it did the code field.
      maxLength: Number.MAX_SAFE_INTEGER,
      admin: {
        hidden: true,
        description:
          'Served to front ends; derived from Content on save, and Content from it when written through the API.',
      },
    },
  ],
  collection: {
    labels: { singular: 'Rich text', plural: 'Rich text' },
    admin: { description: 'Formatted text: headings, paragraphs, lists, links.' },
    hooks: { beforeChange: [htmlContentSync] },
  },
})

/** An image's name in the admin: its file name as uploaded (the stored name's token and extension dropped), else its alt text. */
export function imageTitle(doc: Record<string, unknown>): string | null {
  const stored = (typeof doc.filename === 'string' ? doc.filename.split('/').pop()! : '').replace(/\.[^.]*$/, '')
  // A data-URI upload without a name is stored as a bare uuid: nothing to read there.
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(stored)
  const stem = uuid
    ? ''
    : stored
        .replace(/-[0-9a-f]{12}$/, '')
        .replace(/[-_]+/g, ' ')
        .trim()
  return stem || (typeof doc.alt === 'string' && doc.alt.trim() ? doc.alt : null)
}

export const Image = defineComponent({
  shortName: 'Image',
  adminIcon: 'image',
  mercure: true,
  publishable: true,
  uploadable: {
    file: {
      adapter: 'local',
      urlGenerator: 'public',
      imagineFilters: ['thumbnail'],
      maxSize: '5M',
      maxPixels: 40_000_000,
      property: 'filename',
    },
  },
  collection: {
    labels: { singular: 'Image', plural: 'Images' },
    admin: { description: 'Pictures shown on pages (JPEG, PNG, WebP; scaled down in the browser when very large).' },
  },
  adminTitle: imageTitle,
  fields: [
    {
      name: 'alt',
      type: 'text',
      label: 'Alt text',
      admin: { description: 'What the image shows, for people who cannot see it (served as alt).' },
    },
    { name: 'filename', type: 'text', admin: { readOnly: true } },
  ],
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
  adminIcon: 'link',
  publishable: {
    requiredOnPublish: ['label'],
    // Publishing needs somewhere to go: a route or a raw path (violation on route).
    validate: (doc) =>
      doc.route || doc.rawPath
        ? []
        : [{ propertyPath: 'route', message: 'A route or a rawPath is required to publish.' }],
  },
  fields: [
    { name: 'label', type: 'text' },
    { name: 'route', type: 'relationship', relationTo: 'routes' },
    { name: 'rawPath', type: 'text' },
    { name: 'url', type: 'text', virtual: true, admin: { readOnly: true } },
  ],
  collection: {
    labels: { singular: 'Navigation link', plural: 'Navigation links' },
    admin: { description: 'A link in a menu: to a page of the site (its route) or to any address.' },
    hooks: { afterRead: [navigationUrl] },
  },
})

export const Title = defineComponent({
  shortName: 'Title',
  adminIcon: 'heading',
  timestamped: true,
  collection: { labels: { singular: 'Heading', plural: 'Headings' }, admin: { description: 'A heading on its own.' } },
  fields: [{ name: 'title', type: 'text', required: true }],
})

export const FileDownload = defineComponent({
  shortName: 'FileDownload',
  adminIcon: 'file',
  publishable: true,
  explicitAllowOnly: true,
  collection: {
    labels: { singular: 'File download', plural: 'File downloads' },
    admin: { description: 'A file visitors download, with a preview image.' },
  },
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
