/** The page builder view as GET /_/page_builder answers it (plugins/cwa/features/admin/builder.ts). */
import type { TypeIconName } from '../../../../core/admin/typeIcons.js'

export type BlockState = 'draft' | 'scheduled' | 'live' | 'live-draft' | 'live-scheduled'

export interface MainField {
  name: string
  label: string
  kind: 'file' | 'html' | 'text' | 'textarea'
  alt?: { name: string; label: string }
  /** A relation to a route, picked in the add form. */
  link?: { name: string; label: string }
}

export interface Component {
  '@id': string
  slug: string
  id: string
  type: string
  /** The type as the admin names it. */
  label?: string
  icon?: TypeIconName
  title: string
  state?: BlockState
  pending?: string | null
  scheduledAt?: string | null
  /** Whether its edits go to a draft (a publishable type); else they go live at once. */
  drafts?: boolean
  /** The field edited in place (name '' on a file type without alt text); `file`: the file property of an uploadable type. */
  main?: {
    name: string
    label?: string
    value: string | null
    kind: MainField['kind']
    file: string | null
    /** The version the value was read at, sent back as If-Match: a save over someone else's is refused (412). */
    version?: string | null
  } | null
}

export interface Position {
  '@id': string
  id: string
  sortValue: number
  component: Component | null
  pageDataClass: string | null
  pageDataProperty: string | null
  /** A dynamic position's binding in words ("Blog article: Html content"). */
  binding?: string | null
  resolvesTo: Component | null
}

export interface Addable {
  '@id': string
  slug: string
  type: string
  label: string
  icon?: TypeIconName
  main: MainField | null
  /** Whether a new block of the type is a draft; else it is live at once. */
  drafts: boolean
}

export interface Group {
  '@id': string
  id: string
  reference: string
  location: string | null
  addable: Addable[]
  positions: Position[]
}

export interface Owner {
  '@id': string
  slug: string
  type: string
  reference: string | null
  groups: Group[]
}

export interface View {
  owner: { '@id': string; slug: string; type: string }
  layout: Owner | null
  page: Owner | null
  pageData: { '@id': string; state: BlockState; pending: string | null; scheduledAt: string | null } | null
  changes: { page: number; layout: number }
  /** The page's route (null on a layout, or when it has none): public now, from a date, or not yet. */
  route: PageRoute | null
}

export interface PageRoute {
  '@id': string
  path: string
  liveAt: string | null
  effectiveLiveAt: string | null
  state: 'live' | 'scheduled' | 'offline'
  /** Whether "Publish page" is the route's go-live (its own date empty or to come): the server's rule, not repeated here. */
  waits: boolean
}

/** Whether "Publish page" makes the route public, as the server decides it (the view's `route.waits`). */
export const routeWaits = (route: PageRoute | null): boolean => route?.waits ?? false

/** A publish refusal of one block, as the builder highlights it. */
export interface Refusal {
  block: string
  field: string | null
  message: string
}

/** What every part of the builder is handed: where the API is, and how to run a write (its error shown, the view reloaded). */
export interface BuilderContext {
  apiPrefix: string
  adminRoute: string
  write: (fn: () => Promise<unknown>) => Promise<boolean>
  refusals: Refusal[]
  /** Reloads the view (after a drawer saved). */
  reload: () => Promise<void>
  /**
   * Says whether a builder input (an inline edit, an add form) holds text not saved yet: while any does, the page's
   * form counts as modified, so Payload's leave-page guard warns before it is lost.
   */
  unsaved: (input: string, dirty: boolean) => void
  /** How many builder inputs hold text not saved. */
  unsavedInputs: number
  /**
   * Whether what changes here shows on the site as soon as it is saved (positions, blocks without drafts): on a
   * public page, and on a layout (shared by every page on it).
   */
  liveAtOnce: boolean
}
