import type { CollectionConfig, Field } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { ADMIN_COMPONENTS as ADMIN_ENTRY } from '../../core/adminComponents.js'
import { getCwaMeta } from '../../core/types.js'

/** The collection IRI of a type, as its items' IRIs start (the client appends `/<id>`). */
const collectionIri = (options: ResolvedCwaOptions, meta: { pathPrefix: string; segment: string }) => `${options.apiPrefix}${meta.pathPrefix}/${meta.segment}`

/**
 * Adds the admin panel's own fields (`ui` fields: nothing stored) to a type:
 * the page builder on pages, layouts and page data, a warning on a position
 * that holds nothing (an orphan), and an upload panel per file property of
 * an uploadable type.
 */
export function applyAdminFields(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta) return collection
  const added: Field[] = []
  if (collection.slug === 'pages' || collection.slug === 'layouts' || meta.kind === 'pageData') {
    added.push({
      name: 'cwaPageBuilder',
      type: 'ui',
      admin: { components: { Field: { path: `${ADMIN_ENTRY}#PageBuilderField`, clientProps: { apiPrefix: options.apiPrefix, collectionIri: collectionIri(options, meta) } } } },
    })
  }
  if (collection.slug === 'component_positions') {
    added.push({ name: 'cwaEmptyPosition', type: 'ui', admin: { components: { Field: `${ADMIN_ENTRY}#EmptyPositionWarning` } } })
  }
  for (const property of Object.keys(meta.uploadable ?? {})) {
    added.push({
      name: `cwaUpload_${property}`,
      type: 'ui',
      admin: { components: { Field: { path: `${ADMIN_ENTRY}#FileUploadField`, clientProps: { apiPrefix: options.apiPrefix, collectionIri: collectionIri(options, meta), property } } } },
    })
  }
  return added.length ? { ...collection, fields: [...added, ...collection.fields] } : collection
}

/** The admin panel's own views (under the admin route) and the links to them in its navigation. */
export function adminComponents(options: ResolvedCwaOptions) {
  const clientProps = { apiPrefix: options.apiPrefix }
  return {
    views: {
      cwaRouteTree: { Component: `${ADMIN_ENTRY}#RouteTreeView`, path: '/cwa/routes' as const, exact: true },
      cwaOrphans: { Component: { path: `${ADMIN_ENTRY}#OrphansView`, clientProps }, path: '/cwa/orphaned' as const, exact: true },
    },
    afterNavLinks: [`${ADMIN_ENTRY}#CwaNavLinks`],
  }
}
