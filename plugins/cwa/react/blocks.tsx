import type { CwaCollection, CwaComponent, CwaMediaObject, CwaResolvedPage, CwaResource } from '../client/index.js'
import { CwaForm } from './CwaForm.js'
import type { CwaBlockProps, CwaComponentMap } from './types.js'

/** Class names an editor gave a block (`uiClassNames`), with the kit's own. */
const classes = (component: CwaComponent, own: string) =>
  [own, ...(Array.isArray(component.uiClassNames) ? component.uiClassNames : [])].join(' ')

/** Rich text: its `html`, sanitized by the API when it is written (tags and attributes of an allow-list). */
export function HtmlContent({ component }: CwaBlockProps) {
  return typeof component.html === 'string' ? (
    <div className={classes(component, 'cwa-html')} dangerouslySetInnerHTML={{ __html: component.html }} />
  ) : null
}

/** A heading: the page's first, the others below it (headings stay in order for assistive technology). */
export function Title({ component, page, position }: CwaBlockProps) {
  if (typeof component.title !== 'string') return null
  const first = Object.values(page.resources).find((resource) => resource['@type'] === 'Title')
  const Heading = first?.['@id'] === component['@id'] && !page.pageData ? 'h1' : 'h2'
  return (
    <Heading className={classes(component, 'cwa-title')} data-position={position['@id']}>
      {component.title}
    </Heading>
  )
}

/** The media objects of a file property: the original first, then its variants. */
export const mediaObjects = (resource: CwaResource, property = 'file'): CwaMediaObject[] =>
  resource._metadata?.mediaObjects?.[property] ?? []

/**
 * An image: the original with its variants as `srcset` (by width), its width and height (no layout shift), and its
 * `alt` text (empty: decorative).
 */
export function Image({ component }: CwaBlockProps) {
  const [original, ...variants] = mediaObjects(component)
  if (!original) return null
  const sized = [original, ...variants].filter((object) => typeof object.width === 'number' && object.width > 0)
  const srcSet =
    sized.length > 1 ? sized.map((object) => `${object.contentUrl} ${object.width}w`).join(', ') : undefined
  return (
    <img
      className={classes(component, 'cwa-image')}
      src={original.contentUrl}
      srcSet={srcSet}
      sizes={srcSet ? `(max-width: ${original.width}px) 100vw, ${original.width}px` : undefined}
      width={original.width ?? undefined}
      height={original.height ?? undefined}
      alt={typeof component.alt === 'string' ? component.alt : ''}
      loading="lazy"
      decoding="async"
    />
  )
}

/** A navigation link: to its route's path (`url`), marked as the current page when it is this one. */
export function NavigationLink({ component, page }: CwaBlockProps) {
  const href = typeof component.url === 'string' ? component.url : undefined
  const label = typeof component.label === 'string' ? component.label : href
  if (!href || !label) return null
  return (
    <a className={classes(component, 'cwa-link')} href={href} aria-current={href === page.path ? 'page' : undefined}>
      {label}
    </a>
  )
}

/** A member's link: the path of its route (read with the page: payload-cwa/client's last round), if it has one. */
const memberPath = (page: CwaResolvedPage, member: CwaResource) => {
  const route = typeof member.route === 'string' ? page.resources[member.route] : undefined
  return typeof route?.path === 'string' ? route.path : undefined
}

/** A Collection component: its members (titles, linked to their pages) and the paging links as plain links. */
export function Collection({ component, page }: CwaBlockProps) {
  const collection = component.collection as CwaCollection | null | undefined
  if (!collection) return null
  const view = collection.view
  const pageLink = (iri: string | undefined) => {
    if (!iri) return undefined
    const query = iri.includes('?') ? iri.slice(iri.indexOf('?')) : ''
    return `${page.path}${query}`
  }
  return (
    <section className={classes(component, 'cwa-collection')}>
      <ul>
        {collection.member.map((member) => {
          const title = typeof member.title === 'string' ? member.title : member['@id']
          const path = memberPath(page, member)
          return <li key={member['@id']}>{path ? <a href={path}>{title}</a> : title}</li>
        })}
      </ul>
      {view?.previous || view?.next ? (
        <nav aria-label="Pages">
          {view.previous ? (
            <a href={pageLink(view.previous)} rel="prev">
              Previous
            </a>
          ) : null}
          {view.next ? (
            <a href={pageLink(view.next)} rel="next">
              Next
            </a>
          ) : null}
        </nav>
      ) : null}
    </section>
  )
}

/** A Form component: rendered by the client component `CwaForm`, which submits it and shows violations per field. */
export function Form({ component }: CwaBlockProps) {
  return <CwaForm form={component} />
}

/** The renderers of the types in the box (payload-cwa/content) and the Form and Collection components. */
export const cwaComponents = { HtmlContent, Title, Image, NavigationLink, Collection, Form } satisfies CwaComponentMap
