import { type CollectionAfterReadHook, type CollectionConfig, createDataloaderCacheKey } from 'payload'
import { defineComponent } from '../core/define.js'
import { relationId } from '../core/utils/relations.js'
import { type ComponentTypeOptions, withOptions } from './declare.js'

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

/**
 * A navigation link (`NavigationLink`, served at /component/navigation_links): its `label`, a `route` of the site
 * or a `rawPath`, and the read-only `url` they give. Publishable once it has a label and somewhere to go.
 */
export function navigationLink(options: ComponentTypeOptions = {}): CollectionConfig {
  return defineComponent(
    withOptions(
      {
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
      },
      options,
    ),
  )
}
