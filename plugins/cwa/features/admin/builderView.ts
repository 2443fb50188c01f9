/**
 * What the page builder's view answers (GET /_/page_builder/view): the shapes pageBuilderView (builder.ts) builds
 * and the admin's page builder reads.
 */
import type { TypeIconName } from '../../core/admin/typeIcons.js'
import type { MainField } from './blockWrites.js'
import type { BlockState, PageBlock } from './blocks.js'
import type { PageRoute } from './pageRoute.js'

/** A component as the page builder shows it. */
export interface BuilderComponent {
  '@id': string
  slug: string
  id: string
  type: string
  /** The type as the admin names it (its collection's singular label). */
  label: string
  /** The type's icon beside its name (icons.ts). */
  icon: TypeIconName
  title: string
  /** Its publication state (blocks.ts); 'live' for types that are not publishable. */
  state?: BlockState
  /** The draft "Publish page" would publish for it, if any. */
  pending?: string | null
  /** When that draft is scheduled to go live. */
  scheduledAt?: string | null
  /** The field the builder edits in place, with its value (the pending draft's). */
  main?: PageBlock['main']
  /** Whether its edits go to a draft (a publishable type); else they go live at once. */
  drafts?: boolean
}

export interface BuilderPosition {
  '@id': string
  id: string
  sortValue: number
  component: BuilderComponent | null
  pageDataClass: string | null
  pageDataProperty: string | null
  /** A dynamic position's binding in words ("Blog article: Html content"), else null. */
  binding: string | null
  /** A dynamic position: the component the page data property resolves to (on page data), null on a template. */
  resolvesTo: BuilderComponent | null
}

export interface BuilderGroup {
  '@id': string
  id: string
  reference: string
  location: string | null
  allowedComponents: string[] | null
  /** Component types the add-component choice offers here. */
  addable: Array<{
    '@id': string
    slug: string
    type: string
    label: string
    icon: TypeIconName
    main: MainField | null
    /** Whether a new block of the type is a draft (publishable); else it is live at once. */
    drafts: boolean
  }>
  positions: BuilderPosition[]
}

export interface BuilderOwner {
  '@id': string
  slug: string
  id: string
  type: string
  reference: string | null
  groups: BuilderGroup[]
}

/** The page builder's view (a `PageBuilder` node once serialized). */
export interface PageBuilderView {
  /** The record the builder was opened on (a page, a layout or page data). */
  owner: { '@id': string; slug: string; id: string; type: string }
  /** The layout the page (or the page data's template page) renders in. */
  layout: BuilderOwner | null
  /** The page's groups: the page itself, or the template page of page data. */
  page: BuilderOwner | null
  /** On page data: the record's own state (publishable page data is published with the page). */
  pageData: { '@id': string; state: BlockState; pending: string | null; scheduledAt: string | null } | null
  /**
   * Changes not published: drafts "Publish page" publishes (page: the page's
   * blocks to any depth, its page data), and the layout's (only on request).
   */
  changes: { page: number; layout: number }
  /** The route of the page or page data (null on a layout or without one): where and when it is public. */
  route: PageRoute | null
}
