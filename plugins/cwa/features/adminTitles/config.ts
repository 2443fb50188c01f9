import type { CollectionConfig, Field } from 'payload'
import { getCwaMeta } from '../../core/types.js'
import { publishableOf } from '../publishable/index.js'
import { type AdminTitleFunction, titleFunction } from './derive.js'
import {
  componentTitleToPositions,
  fallbackOnRead,
  groupReferenceToPositions,
  storePositionTitle,
  storeTitle,
} from './hooks.js'
import { GROUPS, POSITIONS, TITLE_FIELD } from './positions.js'

/** Base fields of every component: never what names one. */
const BASE_FIELDS = new Set(['uiComponent', 'uiClassNames', 'componentGroups', 'componentPositions'])

const titleField = (description: string): Field => ({
  name: TITLE_FIELD,
  type: 'text',
  // Not "Title": pages and page data have a title of their own; this is how the admin names the record.
  label: 'Shown in lists as',
  index: true,
  admin: { readOnly: true, position: 'sidebar', description },
})

type Hooks = NonNullable<CollectionConfig['hooks']>

function withTitle(
  collection: CollectionConfig,
  description: string,
  hooks: Partial<Hooks>,
  derive?: AdminTitleFunction,
): CollectionConfig {
  const meta = getCwaMeta(collection)!
  const merged: Hooks = { ...(collection.hooks ?? {}) }
  for (const [name, list] of Object.entries(hooks) as Array<[keyof Hooks, unknown[]]>) {
    ;(merged as Record<string, unknown[]>)[name] = [
      ...(((collection.hooks ?? {}) as Record<string, unknown[]>)[name] ?? []),
      ...list,
    ]
  }
  return {
    ...collection,
    admin: {
      ...collection.admin,
      useAsTitle: TITLE_FIELD,
      listSearchableFields: [TITLE_FIELD, ...(collection.admin?.listSearchableFields ?? [])],
      // A feature that listed the id for want of a title (publishable's badge columns) lists the title instead.
      ...(collection.admin?.defaultColumns
        ? { defaultColumns: collection.admin.defaultColumns.map((c) => (c === 'id' ? TITLE_FIELD : c)) }
        : {}),
    },
    fields: [...collection.fields, titleField(description)],
    hooks: merged,
    // The title is the admin panel's: the JSON-LD API neither serves nor accepts it.
    // (cwaAdminTitle: the derivation, for refreshAdminTitles.)
    custom: {
      ...collection.custom,
      cwaAdminTitle: derive,
      cwa: { ...meta, hidden: [...(meta.hidden ?? []), TITLE_FIELD] },
    },
  }
}

const pageTitle: AdminTitleFunction = (doc) =>
  doc.title ? `${String(doc.title)} (${String(doc.reference ?? '')})` : String(doc.reference ?? '') || null

/**
 * Names every record in the admin panel (lists, pickers, breadcrumbs,
 * search): components by a title derived from their content, pages by
 * title and reference, positions as "group › component"; groups and layouts
 * by reference, page data by title.
 */
export function withAdminTitles(collection: CollectionConfig): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta) return collection
  if (meta.kind === 'component') {
    const own = collection.fields.filter((f) => !('name' in f) || !BASE_FIELDS.has(f.name))
    const label = String((collection.labels as { singular?: unknown } | undefined)?.singular ?? meta.shortName)
    const publishable = publishableOf({ meta })
    const watched = publishable ? [publishable.publishedAt] : []
    const derive = titleFunction(meta, own)
    return withTitle(
      collection,
      'Derived from the content on save.',
      {
        beforeChange: [storeTitle(derive)],
        afterChange: [componentTitleToPositions(watched)],
        afterRead: [fallbackOnRead(label)],
      },
      derive,
    )
  }
  if (collection.slug === 'pages')
    return withTitle(collection, 'Title and reference.', { beforeChange: [storeTitle(pageTitle)] }, pageTitle)
  if (collection.slug === POSITIONS) {
    const titled = withTitle(collection, 'Group › component, kept up to date.', { beforeChange: [storePositionTitle] })
    const columns = collection.admin?.defaultColumns ?? ['componentGroup', 'component', 'sortValue']
    return {
      ...titled,
      admin: { ...titled.admin, defaultColumns: [TITLE_FIELD, ...columns.filter((c) => c !== TITLE_FIELD)] },
    }
  }
  const searchable = (fields: string[]) => ({ ...collection.admin, listSearchableFields: fields })
  if (collection.slug === GROUPS) {
    return {
      ...collection,
      admin: searchable(['reference', 'location']),
      hooks: {
        ...collection.hooks,
        afterChange: [...(collection.hooks?.afterChange ?? []), groupReferenceToPositions],
      },
    }
  }
  if (collection.slug === 'layouts') return { ...collection, admin: searchable(['reference', 'uiComponent']) }
  if (meta.kind === 'pageData')
    return {
      ...collection,
      admin: {
        ...collection.admin,
        useAsTitle: collection.admin?.useAsTitle ?? 'title',
        listSearchableFields: ['title'],
      },
    }
  return collection
}
