import type { CollectionConfig, Field } from 'payload'

/** Kinds of resource the JSON-LD layer serves; each maps to one path prefix. */
export type ResourceKind = 'core' | 'component' | 'pageData' | 'user'

export type OrderDirection = 'asc' | 'desc'

/** Collection behaviour of a resource: search, order and paging parameters. */
export interface CollectionBehaviour {
  /** Properties matched by the single case-insensitive, partial `search` parameter. */
  search?: string[]
  /** Properties accepted by `order[property]=asc|desc`. */
  order?: string[]
  /** Order applied when the request names none. Newest first by default. */
  defaultOrder?: Record<string, OrderDirection>
  /** Boolean properties filterable as `prop=true|false|1|0` or `prop[]=...`. */
  booleanFilters?: string[]
  /** Default page size (30 when unset). */
  itemsPerPage?: number
  /** Whether `itemsPerPage` may be set by the client (default true). */
  clientItemsPerPage?: boolean
  /** Upper bound for a client `itemsPerPage` (default 100). */
  maxItemsPerPage?: number
}

/**
 * What the JSON-LD layer knows about a Payload collection: what the core
 * knows of a type, plus what features declared on it (FeatureDeclarations,
 * kept as declared). Stored on the collection as `custom.cwa`, so the
 * registry is rebuilt from any Payload config without a second source of
 * truth.
 */
export interface CwaResourceMeta extends CollectionBehaviour, FeatureDeclarations {
  kind: ResourceKind
  /** Class short name: the JSON-LD @type. */
  shortName: string
  /** Path prefix under the API prefix: '/_', '/component', '/page_data' or ''. */
  pathPrefix: string
  /** Collection path segment (snake_case plural of the short name). */
  segment: string
  /** Adds createdAt and modifiedAt to the output. */
  timestamped?: boolean
  /** Kept out of the general add-component dialog; only groups naming it may hold it. */
  explicitAllowOnly?: boolean
  /** JSON property name -> Payload field name, for fields whose names differ. */
  aliases?: Record<string, string>
  /** JSON properties accepted on write and never serialized. */
  writeOnly?: string[]
  /** Payload fields never serialized (beyond Payload's own hidden fields). */
  hidden?: string[]
  /** Payload fields that are serialized but never written through the JSON-LD API. */
  readOnly?: string[]
  /** Show createdAt even when not timestamped (Layout, Page). */
  showCreatedAt?: boolean
}

/**
 * Declaration options that features add to defineComponent and
 * definePageData: each feature augments this interface with its own keys
 * (`declare module`), so the core names none of them. The core copies them
 * onto the type's metadata as declared.
 */
export interface FeatureDeclarations {}

/** Options shared by defineComponent and definePageData. */
export interface TypeDeclaration extends CollectionBehaviour {
  /** Class short name, e.g. `HtmlContent`; gives @type and the path segment. */
  shortName: string
  /**
   * The collection path segment (snake_case), when the default, the English plural of the short name in snake_case
   * (`Hero` -> `heroes`, `Category` -> `categories`, `BlogArticleData` -> `blog_article_datas`), is not the one wanted.
   */
  segment?: string
  /** The type's own properties, as Payload fields. */
  fields?: Field[]
  timestamped?: boolean
  /** Payload fields kept out of the JSON-LD API (neither served nor written), e.g. an editor state beside its HTML. */
  hidden?: string[]
  /** Anything else Payload accepts on a collection (admin, hooks, labels...). */
  collection?: Partial<Omit<CollectionConfig, 'fields' | 'slug'>>
}

export function getCwaMeta(collection: { custom?: Record<string, unknown> } | undefined): CwaResourceMeta | undefined {
  return (collection?.custom as { cwa?: CwaResourceMeta } | undefined)?.cwa
}
