import type { CollectionConfig } from 'payload'
import { collectionSegment } from './utils/naming.js'
import type { CwaResourceMeta, FeatureDeclarations, TypeDeclaration } from './types.js'

export interface ComponentDeclaration extends TypeDeclaration, FeatureDeclarations {
  /** Keep the type out of the general add-component dialog; only groups naming it may hold it. */
  explicitAllowOnly?: boolean
}

export type PageDataDeclaration = TypeDeclaration & FeatureDeclarations

/** What features declared (their FeatureDeclarations keys): everything the core does not read itself. */
function featureKeys(decl: TypeDeclaration & Record<string, unknown>): Record<string, unknown> {
  const { shortName, segment, fields, timestamped, collection, explicitAllowOnly, hidden, ...rest } = decl
  const {
    search,
    order,
    defaultOrder,
    booleanFilters,
    itemsPerPage,
    clientItemsPerPage,
    maxItemsPerPage,
    ...features
  } = rest
  return features
}

function collectionBehaviour(decl: TypeDeclaration) {
  const { search, order, defaultOrder, booleanFilters, itemsPerPage, clientItemsPerPage, maxItemsPerPage } = decl
  return { search, order, defaultOrder, booleanFilters, itemsPerPage, clientItemsPerPage, maxItemsPerPage }
}

function build(decl: TypeDeclaration, meta: CwaResourceMeta, group: string): CollectionConfig {
  const { collection = {} } = decl
  return {
    ...collection,
    slug: meta.segment,
    admin: { group, ...(collection.admin ?? {}) },
    labels: collection.labels ?? { singular: decl.shortName, plural: decl.shortName },
    fields: decl.fields ?? [],
    custom: { ...(collection.custom ?? {}), cwa: meta },
  }
}

/**
 * Declares a component type. The cwa plugin adds the Component base fields
 * (uiComponent, uiClassNames, componentGroups, componentPositions), access
 * rules and the table prefix; the JSON-LD layer serves it at
 * /component/{snake_plural(shortName)} with @type = shortName.
 */
export function defineComponent(decl: ComponentDeclaration): CollectionConfig {
  const meta: CwaResourceMeta = {
    ...collectionBehaviour(decl),
    kind: 'component',
    shortName: decl.shortName,
    pathPrefix: '/component',
    segment: collectionSegment(decl.shortName, decl.segment),
    timestamped: decl.timestamped ?? false,
    explicitAllowOnly: decl.explicitAllowOnly ?? false,
    ...(decl.hidden ? { hidden: decl.hidden } : {}),
    ...featureKeys(decl as ComponentDeclaration & Record<string, unknown>),
  }
  return build(decl, meta, 'Components')
}

/**
 * Declares a page data type: records that render through a template Page.
 * The plugin adds title, metaDescription, page, route, parentPage,
 * parentPageData; served at /page_data/{snake_plural(shortName)}.
 */
export function definePageData(decl: PageDataDeclaration): CollectionConfig {
  const meta: CwaResourceMeta = {
    search: ['title'],
    order: ['title', 'createdAt'],
    ...stripUndefined(collectionBehaviour(decl)),
    kind: 'pageData',
    shortName: decl.shortName,
    pathPrefix: '/page_data',
    segment: collectionSegment(decl.shortName, decl.segment),
    timestamped: true,
    ...(decl.hidden ? { hidden: decl.hidden } : {}),
    ...featureKeys(decl as PageDataDeclaration & Record<string, unknown>),
  }
  return build(decl, meta, 'Page data')
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
