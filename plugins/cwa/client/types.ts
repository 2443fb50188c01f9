/**
 * What the JSON-LD API answers, as a front end reads it (the contract's resources). Properties a type of the app
 * adds are on the resource as the API serves them; `CwaComponentTypes` (generated, or written by hand) types them.
 */

/** Every resource: its IRI, its type's short name and the computed `_metadata`. */
export interface CwaResource {
  '@id': string
  '@type': string
  _metadata?: {
    persisted?: boolean
    publishable?: { published?: boolean; publishedAt?: string | null }
    /** Files of the resource (uploads): absolute URLs, with image sizes and variants. */
    mediaObjects?: Record<string, CwaMediaObject[]>
    [key: string]: unknown
  }
  [property: string]: unknown
}

/** A stored file, as `_metadata.mediaObjects[property]` lists it (the original first, then its variants). */
export interface CwaMediaObject {
  contentUrl: string
  mimeType?: string
  width?: number | null
  height?: number | null
  fileSize?: number | null
  /** The image filter of a variant (`thumbnail`); absent on the original. */
  imagineFilter?: string | null
  [key: string]: unknown
}

export interface CwaRoute extends CwaResource {
  '@type': 'Route'
  path: string
  name?: string | null
  page?: string | null
  pageData?: string | null
  /** A redirect route: where its path now lives. */
  redirectPath?: string | null
}

export interface CwaPage extends CwaResource {
  '@type': 'Page'
  reference?: string | null
  title?: string | null
  metaDescription?: string | null
  isTemplate?: boolean
  layout?: string | null
  uiComponent?: string | null
  uiClassNames?: string[] | null
  componentGroups?: string[]
}

export interface CwaLayout extends CwaResource {
  '@type': 'Layout'
  reference?: string | null
  uiComponent?: string | null
  uiClassNames?: string[] | null
  componentGroups?: string[]
}

export interface CwaPageData extends CwaResource {
  title?: string | null
  metaDescription?: string | null
  page?: string | null
  route?: string | null
}

export interface CwaComponentGroup extends CwaResource {
  '@type': 'ComponentGroup'
  reference: string
  location?: string | null
  componentPositions?: string[]
  allowedComponents?: string[] | null
}

export interface CwaComponentPosition extends CwaResource {
  '@type': 'ComponentPosition'
  componentGroup?: string | null
  component?: string | null
  sortValue?: number | null
  /** A dynamic position: the page data type and property its component comes from. */
  pageDataClass?: string | null
  pageDataProperty?: string | null
}

/** A component: the base properties every component type has, and its type's own. */
export interface CwaComponent extends CwaResource {
  uiComponent?: string | null
  uiClassNames?: string[] | null
  componentGroups?: string[]
  componentPositions?: string[]
}

/** A Hydra collection page. */
export interface CwaCollection<T extends CwaResource = CwaResource> extends CwaResource {
  member: T[]
  totalItems: number
  view?: { '@id': string; first?: string; last?: string; previous?: string; next?: string }
}

/** One violation of a 422, as the contract words it. */
export interface CwaViolation {
  propertyPath: string
  message: string
  code?: string | null
}
