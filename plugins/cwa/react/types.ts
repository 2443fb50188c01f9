import type { ComponentType, ReactNode } from 'react'
import type {
  CwaComponent,
  CwaComponentPosition,
  CwaLayout,
  CwaPage,
  CwaResolvedPage,
  CwaResource,
} from '../client/index.js'

/** Renders an owner's group of this reference (the page's, by default) with the page's component map. */
export type CwaGroupRenderer = (reference: string, owner?: CwaResource) => ReactNode

/** What a block's renderer gets: its component, the position holding it, the whole page. */
export interface CwaBlockProps<C extends CwaComponent = CwaComponent> {
  component: C
  position: CwaComponentPosition
  page: CwaResolvedPage
  /** Renders a group this component owns (a component with groups of its own). */
  group: CwaGroupRenderer
  /** The page is rendered for an editor (a preview): show what a visitor would not see, such as unknown types. */
  editor: boolean
}

/**
 * A block's renderer. Declared as a method's type, so that a renderer of one type's own props
 * (`CwaBlockProps<Quote>`) fits a map of all types (method parameters are compared both ways).
 */
export type CwaBlockRenderer = { render(props: CwaBlockProps): ReactNode }['render']

/** The renderers of the component types, by `@type` (`HtmlContent`, `Image`, your own). */
export type CwaComponentMap = Record<string, CwaBlockRenderer>

/**
 * A renderer for every component type of an app, each typed with its own properties: with the types
 * `npx payload-cwa cwa:client-types` writes, `const components: CwaComponentRenderers<CwaComponentTypes>` fails the
 * type check when a type has no renderer.
 */
export type CwaComponentRenderers<Types> = {
  [Type in keyof Types]: (props: CwaBlockProps<Types[Type] & CwaComponent>) => ReactNode
}

/** What a page template (by the page's `uiComponent`) gets. */
export interface CwaTemplateProps {
  page: CwaResolvedPage
  /** The page's own groups by reference: `group('home_main')`. */
  group: CwaGroupRenderer
}

/** What a layout (by the layout's `uiComponent`) gets: the page inside it. */
export interface CwaLayoutProps {
  page: CwaResolvedPage
  layout: CwaLayout
  /** The layout's groups by reference: `group('primary_top', layout)`. */
  group: CwaGroupRenderer
  children: ReactNode
}

export interface CwaPageProps {
  page: CwaResolvedPage
  /** Block renderers by type; `cwaComponents` has those of the types in the box. */
  components: CwaComponentMap
  /** Page templates by a page's `uiComponent`; a page without one is rendered by `DefaultTemplate`. */
  templates?: Record<string, ComponentType<CwaTemplateProps>>
  /** Layouts by a layout's `uiComponent`; a layout without one is rendered by `DefaultLayout`. */
  layouts?: Record<string, ComponentType<CwaLayoutProps>>
  /** A preview for an editor: unknown types show a placeholder instead of nothing. */
  editor?: boolean
}

export type { CwaPage }
