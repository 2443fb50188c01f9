import type { CollectionConfig, Field } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { ADMIN_COMPONENTS as ADMIN_ENTRY } from '../../core/adminComponents.js'
import { getCwaMeta } from '../../core/types.js'
import { navGroup, withAdvancedSection } from './layout.js'
import { assertTypeIcon } from './icons.js'
import { livePreviewUrl } from './preview.js'
import { starterGroups } from './starterGroups.js'

/**
 * Fields an editor edits with a control of their own. JSON fields, whose editor in Payload loads its code from a
 * CDN: a component group's allowed block types, a list of type names to tick (AllowedBlockTypesField); a record
 * list's default query parameters, rows of a name and a value (QueryParametersField). A new page's reference,
 * derived from its title (ReferenceFromTitleField); its "Template for page data" checkbox, never empty, without a required asterisk (OptionalCheckboxField).
 * The Route table of a page or page data record, read again after the page builder publishes (RouteJoinField).
 */
function editorControl(collection: CollectionConfig, field: Field, options: ResolvedCwaOptions): Field {
  if (collection.slug === 'pages' && field.type === 'text' && field.name === 'reference')
    return withControl(field, { path: `${ADMIN_ENTRY}#ReferenceFromTitleField` })
  if (collection.slug === 'pages' && field.type === 'checkbox' && field.name === 'isTemplate')
    return withControl(field, { path: `${ADMIN_ENTRY}#OptionalCheckboxField` })
  if (field.type === 'join' && field.name === 'route' && field.collection === 'routes')
    return withControl(field, { path: `${ADMIN_ENTRY}#RouteJoinField` })
  if (field.type !== 'json' || !('name' in field)) return field
  const control =
    collection.slug === 'component_groups' && field.name === 'allowedComponents'
      ? { path: `${ADMIN_ENTRY}#AllowedBlockTypesField`, clientProps: { apiPrefix: options.apiPrefix } }
      : field.name === 'defaultQueryParameters' && getCwaMeta(collection)?.shortName === 'Collection'
        ? { path: `${ADMIN_ENTRY}#QueryParametersField` }
        : null
  return control ? withControl(field, control) : field
}

/** A field with its own control in the admin's form (a component path of the import map). */
function withControl(
  field: Field & { admin?: { components?: object } },
  Field: { path: string; clientProps?: object },
) {
  return { ...field, admin: { ...field.admin, components: { ...field.admin?.components, Field } } } as Field
}

/** The collection IRI of a type, as its items' IRIs start (the client appends `/<id>`). */
const collectionIri = (options: ResolvedCwaOptions, meta: { pathPrefix: string; segment: string }) =>
  `${options.apiPrefix}${meta.pathPrefix}/${meta.segment}`

/**
 * Adds the admin panel's own fields (`ui` fields: nothing stored) to a type:
 * the page builder on pages, layouts and page data, a warning on a position
 * that holds nothing (an orphan), an upload panel per file property of an
 * uploadable type, and "View on site" (with Live Preview) when the front
 * end's URL is set. Then lays the form out for an editor (layout.ts): its
 * navigation group, technical fields in a collapsed "Advanced" section.
 */
export function applyAdminFields(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta) return collection
  assertTypeIcon(meta.shortName, meta)
  const added: Field[] = []
  const sidebar: Field[] = []
  const routable = collection.slug === 'pages' || meta.kind === 'pageData'
  if (collection.slug === 'pages' || collection.slug === 'layouts' || meta.kind === 'pageData') {
    added.push({
      name: 'cwaPageBuilder',
      type: 'ui',
      admin: {
        components: {
          Field: {
            path: `${ADMIN_ENTRY}#PageBuilderField`,
            clientProps: { apiPrefix: options.apiPrefix, collectionIri: collectionIri(options, meta) },
          },
        },
      },
    })
  }
  if (collection.slug === 'component_positions') {
    added.push({
      name: 'cwaEmptyPosition',
      type: 'ui',
      admin: { components: { Field: `${ADMIN_ENTRY}#EmptyPositionWarning` } },
    })
  }
  const files = Object.keys(meta.uploadable ?? {})
  for (const property of files) {
    const clientProps = { apiPrefix: options.apiPrefix, collectionIri: collectionIri(options, meta), property }
    added.push({
      name: `cwaUpload_${property}`,
      type: 'ui',
      label: files.length > 1 ? property : 'File',
      // Cell: the list's thumbnail column (listColumns puts the first file first).
      admin: {
        components: {
          Field: { path: `${ADMIN_ENTRY}#FileUploadField`, clientProps },
          Cell: { path: `${ADMIN_ENTRY}#UploadThumbnailCell`, clientProps },
        },
      },
    })
  }
  if (routable || collection.slug === 'routes') {
    // Always declared (it renders nothing without the option), so the import map never depends on the options.
    sidebar.push({
      name: 'cwaViewOnSite',
      type: 'ui',
      admin: {
        position: 'sidebar',
        disableListColumn: true,
        components: { Field: { path: `${ADMIN_ENTRY}#ViewOnSite`, clientProps: { frontEndUrl: options.frontEndUrl } } },
      },
    })
  }
  let out: CollectionConfig = {
    ...collection,
    admin: { ...collection.admin, group: navGroup(collection), defaultColumns: listColumns(collection) },
    fields: [...added, ...collection.fields.map((field) => editorControl(collection, field, options)), ...sidebar],
  }
  if (options.frontEndUrl !== null && routable)
    out = {
      ...out,
      admin: { ...out.admin, livePreview: { url: livePreviewUrl(options.frontEndUrl, options.previewPath) } },
    }
  if (collection.slug === 'routes') {
    const components = out.admin?.components ?? {}
    out = {
      ...out,
      admin: {
        ...out.admin,
        components: {
          ...components,
          beforeListTable: [...(components.beforeListTable ?? []), `${ADMIN_ENTRY}#RouteTreeLink`],
        },
      },
    }
  }
  if (collection.slug === 'pages')
    out = { ...out, hooks: { ...out.hooks, afterChange: [...(out.hooks?.afterChange ?? []), starterGroups] } }
  return withAdvancedSection(out)
}

/**
 * A list's columns when none were chosen: the title and the last change,
 * never the technical fields Payload would take first (an empty front-end
 * component, an empty class list shown as `[]`), nor a column that is often
 * empty (Payload shows an empty cell as `<No …>`).
 */
function listColumns(collection: CollectionConfig): string[] | undefined {
  const columns = chosenColumns(collection)
  // An uploadable type (the Images list) leads with its first file's thumbnail.
  const file = Object.keys(getCwaMeta(collection)?.uploadable ?? {})[0]
  return file && columns ? [`cwaUpload_${file}`, ...columns.filter((c) => c !== `cwaUpload_${file}`)] : columns
}

function chosenColumns(collection: CollectionConfig): string[] | undefined {
  const meta = getCwaMeta(collection)
  const title = collection.admin?.useAsTitle
  if (collection.slug === 'pages' && title && title !== 'reference') return [title, 'layout', 'updatedAt']
  // Routes: their go-live date (empty when not live) rather than three target columns two of which are always empty (the route tree shows targets).
  if (collection.slug === 'routes') return ['path', 'liveAt', 'updatedAt']
  if (collection.admin?.defaultColumns) return collection.admin.defaultColumns
  if (meta?.kind === 'component' || meta?.kind === 'pageData')
    return [title ?? 'id', ...(meta.kind === 'pageData' ? ['page'] : []), 'updatedAt']
  return undefined
}

/**
 * The links to the library's own admin views in the navigation (the route
 * tree, the routes feature's; the orphan report, the orphans feature's),
 * and the dashboard's start panel.
 */
export function adminComponents() {
  return {
    afterNavLinks: [`${ADMIN_ENTRY}#CwaNavLinks`],
    beforeDashboard: [`${ADMIN_ENTRY}#StartPanel`],
  }
}
