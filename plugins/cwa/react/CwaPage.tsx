import type { ReactNode } from 'react'
import { blocksOf, groupOf, type CwaResolvedPage, type CwaResource } from '../client/index.js'
import type { CwaComponentMap, CwaGroupRenderer, CwaLayoutProps, CwaPageProps, CwaTemplateProps } from './types.js'

/**
 * A resolved page (`client.page(path)`) rendered: its layout around its template, each group's blocks by their
 * type's renderer. A synchronous component with no data fetching: a React server component in Next.js, and plain
 * server rendering anywhere else.
 */
export function CwaPage({ page, components, templates = {}, layouts = {}, editor = false }: CwaPageProps) {
  const group = groupRenderer(page, components, editor)
  const pageGroup: CwaGroupRenderer = (reference, owner = page.page) => group(reference, owner)
  const Template = (page.page.uiComponent && templates[page.page.uiComponent]) || DefaultTemplate
  const body = <Template page={page} group={pageGroup} />
  if (!page.layout) return <main id="main">{body}</main>
  const Layout = (page.layout.uiComponent && layouts[page.layout.uiComponent]) || DefaultLayout
  const layoutGroup: CwaGroupRenderer = (reference, owner = page.layout!) => group(reference, owner)
  return (
    <Layout page={page} layout={page.layout} group={layoutGroup}>
      {body}
    </Layout>
  )
}

/** Renders an owner's group: each block by its type's renderer, an unknown type as nothing (a placeholder for editors). */
function groupRenderer(page: CwaResolvedPage, components: CwaComponentMap, editor: boolean): CwaGroupRenderer {
  const render = (reference: string, owner: CwaResource): ReactNode => {
    const group = groupOf(page, owner, reference)
    if (!group) return null
    return (
      <div className="cwa-group" data-cwa-group={reference}>
        {blocksOf(page, group).map(({ position, component }) => {
          const Block = components[component['@type']]
          const own: CwaGroupRenderer = (inner, innerOwner = component) => render(inner, innerOwner)
          if (Block)
            return (
              <Block
                key={position['@id']}
                component={component}
                position={position}
                page={page}
                group={own}
                editor={editor}
              />
            )
          return editor ? (
            <p key={position['@id']} className="cwa-unknown" role="note">
              No renderer for the type {component['@type']} ({component['@id']})
            </p>
          ) : null
        })}
      </div>
    )
  }
  return (reference, owner) => render(reference, owner ?? page.page)
}

/** Every group of an owner, in its order. */
function allGroups(page: CwaResolvedPage, owner: CwaResource, group: CwaGroupRenderer): ReactNode[] {
  const references = (owner.componentGroups ?? []) as string[]
  return references.flatMap((iri) => {
    const found = page.resources[iri]
    return found && typeof found.reference === 'string'
      ? [<GroupSlot key={iri}>{group(found.reference, owner)}</GroupSlot>]
      : []
  })
}

const GroupSlot = ({ children }: { children: ReactNode }) => <>{children}</>

/**
 * A page without a template of its own: its heading, then its groups in order. The heading is a page data record's
 * title (its template page has none of its own), else the page's title when no Title block is its heading.
 */
export function DefaultTemplate({ page, group }: CwaTemplateProps) {
  const hasTitleBlock = Object.values(page.resources).some((resource) => resource['@type'] === 'Title')
  const heading = page.pageData ? page.pageData.title : hasTitleBlock ? null : page.page.title
  return (
    <>
      {heading ? <h1>{heading}</h1> : null}
      {allGroups(page, page.page, group)}
    </>
  )
}

/**
 * A layout without one of its own: its first group as the header, the page as the main content (`id="main"`, a
 * skip link's target), the rest as the footer.
 */
export function DefaultLayout({ page, layout, group, children }: CwaLayoutProps) {
  const [first, ...rest] = allGroups(page, layout, group)
  return (
    <>
      {first ? <header>{first}</header> : null}
      <main id="main">{children}</main>
      {rest.length > 0 ? <footer>{rest}</footer> : null}
    </>
  )
}
