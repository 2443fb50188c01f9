import type { CollectionConfig, Field } from 'payload'
import { getCwaMeta } from '../../core/types.js'
import { publishableOf } from '../publishable/index.js'

/**
 * How the admin panel lays out the library's collections for an editor:
 * where each sits in the navigation, and which fields are technical (the
 * front-end component and CSS classes, the group and position lists, the
 * draft/live twin links, the sort value). Those go in a collapsed
 * "Advanced" section after the content, so a form leads with what the
 * editor writes. The data does not change: a collapsible stores nothing.
 */

/** The navigation groups, in words an editor uses. */
export const NAV_GROUPS = {
  content: 'Pages and content',
  structure: 'Site structure',
  media: 'Media',
  settings: 'Settings',
  users: 'Users',
} as const

/** The groups' order in the navigation and on the dashboard: content first, the account last; a site's own groups between Media and Settings. */
const GROUP_ORDER: unknown[] = [NAV_GROUPS.content, NAV_GROUPS.structure, NAV_GROUPS.media]
const LAST_GROUPS: unknown[] = [NAV_GROUPS.settings, NAV_GROUPS.users]

function groupRank(collection: CollectionConfig): number {
  const group = collection.admin?.group
  const first = GROUP_ORDER.indexOf(group)
  if (first >= 0) return first
  const last = LAST_GROUPS.indexOf(group)
  return last >= 0 ? GROUP_ORDER.length + 1 + last : GROUP_ORDER.length
}

/**
 * The collections in the order an editor looks for them (Payload lists the
 * groups as their first collection comes): Pages and content, Site
 * structure, Media, the site's own groups, Settings, Users. Stable: within a
 * group the declared order stays.
 */
export function byNavGroup(collections: CollectionConfig[]): CollectionConfig[] {
  return collections
    .map((collection, index) => ({ collection, index, rank: groupRank(collection) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ collection }) => collection)
}

/** Groups the library gave by default (defineComponent, definePageData): replaced; a site's own group is kept. */
const LIBRARY_DEFAULTS = new Set<unknown>([undefined, 'Components', 'Page data', 'Structure'])

/** The navigation group of a collection (false: out of the navigation, still reachable by URL). */
export function navGroup(collection: CollectionConfig): string | false | undefined {
  const current = collection.admin?.group
  if (!LIBRARY_DEFAULTS.has(current)) return current as string | false
  const meta = getCwaMeta(collection)
  if (collection.slug === 'layouts' || collection.slug === 'routes') return NAV_GROUPS.structure
  if (collection.slug === 'pages' || meta?.kind === 'pageData') return NAV_GROUPS.content
  if (meta?.kind === 'component')
    return meta.uploadable && Object.keys(meta.uploadable).length > 0 ? NAV_GROUPS.media : NAV_GROUPS.content
  return current as string | undefined
}

/** Field names that are technical, by collection (the twin links of publishable types are added). */
function technicalNames(collection: CollectionConfig): Set<string> {
  const meta = getCwaMeta(collection)
  const names = new Set<string>()
  if (meta?.kind === 'component')
    ['uiComponent', 'uiClassNames', 'componentGroups', 'componentPositions'].forEach((n) => names.add(n))
  if (collection.slug === 'pages') ['uiComponent', 'uiClassNames', 'componentGroups'].forEach((n) => names.add(n))
  if (collection.slug === 'layouts') ['uiClassNames', 'componentGroups'].forEach((n) => names.add(n))
  if (collection.slug === 'component_groups') names.add('componentPositions')
  if (collection.slug === 'component_positions') names.add('sortValue')
  if (collection.slug === 'routes') names.add('redirectedRoutes')
  const publishable = meta ? publishableOf({ meta }) : null
  if (publishable) {
    names.add(publishable.publishedResource)
    names.add(publishable.draftResource)
  }
  return names
}

/** A field moved into the Advanced section: in the main column (a collapsible lives there), otherwise as it was. */
function inMainColumn(field: Field): Field {
  if (!('admin' in field) || !field.admin || !('position' in field.admin)) return field
  const { position: _position, ...admin } = field.admin as Record<string, unknown>
  return { ...field, admin } as Field
}

/** The collection with its technical top-level fields gathered, in their order, in a collapsed "Advanced" section at the end of the main column. */
export function withAdvancedSection(collection: CollectionConfig): CollectionConfig {
  const technical = technicalNames(collection)
  const moved: Field[] = []
  const kept: Field[] = []
  for (const field of collection.fields) {
    if ('name' in field && technical.has(field.name)) moved.push(inMainColumn(field))
    else kept.push(field)
  }
  if (moved.length === 0) return collection
  const advanced: Field = {
    type: 'collapsible',
    label: 'Advanced',
    admin: {
      initCollapsed: true,
      description: 'For developers: how the front end renders this record, and how it links to others.',
    },
    fields: moved,
  }
  return { ...collection, fields: [...kept, advanced] }
}
