/**
 * Issue 39, payload-cwa/react: the demo's pages, resolved by payload-cwa/client, rendered on the server with the
 * kit's renderers (react-dom/server, no browser): landmarks, headings in order, each block as the JSON-LD answer
 * has it (text, image with its variants, links to routes, the form's fields), an unknown type as nothing for a
 * visitor and as a visible placeholder for an editor, and a page template and layout of the app's own.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { ReactNode } from 'react'
import { createCwaClient, type CwaComponent, type CwaResolvedPage } from '../../plugins/cwa/dist/client.js'
import {
  CwaPage,
  cwaComponents,
  Image,
  type CwaBlockProps,
  type CwaComponentMap,
  type CwaPageProps,
  type CwaTemplateProps,
} from '../../plugins/cwa/dist/react.js'
import { seedDemo } from '../../src/seed/demo'
import { createElement, renderToStaticMarkup } from '../support/reactRender'
import { startTestServer, type TestServer } from '../support/server'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
  await seedDemo(server.payload, { apiPrefix: '/_api' })
})
afterAll(() => server?.close())

async function render(
  path: string,
  props: Partial<CwaPageProps> = {},
): Promise<{ html: string; page: CwaResolvedPage }> {
  const result = await createCwaClient({ apiUrl: `${server.url}/_api` }).page(path)
  if (result.kind !== 'page') throw new Error(`${path}: ${result.kind}`)
  return {
    html: renderToStaticMarkup(createElement(CwaPage, { page: result, components: cwaComponents, ...props })),
    page: result,
  }
}

/** The tag names of the headings, in document order. */
const headings = (html: string) => [...html.matchAll(/<(h[1-6])[\s>]/g)].map((match) => match[1])

describe('CwaPage', () => {
  it('renders the home page: the layout’s header and footer around main, one h1, the text, the image, the links', async () => {
    const { html, page } = await render('/')
    expect(html).toMatch(/^<header>.*<\/header><main id="main">.*<\/main><footer>.*<\/footer>$/s)
    expect(headings(html)).toEqual(['h1'])
    expect(html).toContain('<h1 class="cwa-title"')
    expect(html).toContain('Welcome</h1>')
    expect(html).toContain('<div class="cwa-html"><p>This site is served by payload-cwa.</p></div>')
    // The image: its original, its thumbnail variant in srcset, its size and alt text.
    const image = Object.values(page.resources).find((resource) => resource['@type'] === 'Image')!
    const [original, thumbnail] = image._metadata!.mediaObjects!.file!
    const img = html.match(/<img [^>]*>/)![0]
    expect(img).toContain(`src="${original!.contentUrl}"`)
    expect(img).toContain(`${thumbnail!.contentUrl} ${thumbnail!.width}w`)
    expect(img).toContain(`width="${original!.width}"`)
    expect(img).toContain(`height="${original!.height}"`)
    // The demo's banner is decorative (no alt text set): an empty alt, so screen readers skip it.
    expect(image.alt).toBeNull()
    expect(img).toContain('alt=""')
    const described = renderToStaticMarkup(
      createElement(Image, {
        component: { ...image, alt: 'A gradient banner' },
        position: {} as never,
        page,
        group: () => null,
        editor: false,
      }),
    )
    expect(described).toContain('alt="A gradient banner"')
    // The navigation: a link per route, the current one marked.
    expect([...html.matchAll(/<a class="cwa-link" href="([^"]+)"/g)].map((match) => match[1])).toEqual([
      '/',
      '/blog',
      '/contact',
    ])
    expect(html).toContain('<a class="cwa-link" href="/" aria-current="page">Home</a>')
  })

  it('renders the blog’s listing with a link to each article, by its route', async () => {
    const { html, page } = await render('/blog')
    expect(page.reads.rounds).toBe(3)
    // A page with no Title block has its own title as its one heading (the contact page too).
    expect(headings(html)).toEqual(['h1'])
    expect(html).toContain('<h1>Blog</h1>')
    expect(headings((await render('/contact')).html)).toEqual(['h1'])
    expect(html).toContain(
      '<ul><li><a href="/blog/second-article">Second article</a></li><li><a href="/blog/first-article">First article</a></li></ul>',
    )
  })

  it('renders an article through its template: the article’s title as the h1, its own text', async () => {
    const { html } = await render('/blog/first-article')
    expect(headings(html)).toEqual(['h1'])
    expect(html).toContain('<h1>First article</h1>')
    expect(html).toContain('<p>The first article of the demo blog.</p>')
    expect(html).not.toContain('second article')
  })

  it('renders the contact form with a label per field, posting to its submit endpoint', async () => {
    const { html } = await render('/contact')
    expect(html).toContain('<form class="cwa-form"')
    for (const id of ['example_form_email', 'example_form_message'])
      expect(html).toMatch(new RegExp(`<label for="${id}">[^<]+</label><(input|textarea) id="${id}"`))
    expect(html).toContain('<button type="submit">Send</button>')
    // A nested field (a repeated password: first and second) is a fieldset of its inputs, named as the API reads them.
    expect(html).toMatch(
      /<fieldset><legend>Password<\/legend>.*name="example_form\[plainPassword\]\[first\]".*name="example_form\[plainPassword\]\[second\]".*<\/fieldset>/s,
    )
  })

  it('renders an unknown type as nothing for a visitor and as a placeholder for an editor', async () => {
    const { Title: _title, ...withoutTitle } = cwaComponents
    const visitor = await render('/', { components: withoutTitle })
    expect(visitor.html).not.toContain('Welcome')
    expect(visitor.html).not.toContain('cwa-unknown')
    const editor = await render('/', { components: withoutTitle, editor: true })
    expect(editor.html).toMatch(
      /<p class="cwa-unknown" role="note">No renderer for the type Title \(\/_api\/component\/titles\/[0-9a-f-]+\)<\/p>/,
    )
  })

  it('renders a type of the app’s own with its renderer, typed with its own properties', async () => {
    const Quote = ({ component }: CwaBlockProps<CwaComponent & { html: string }>) =>
      createElement('blockquote', null, component.html.replace(/<[^>]+>/g, ''))
    // A renderer of one type's own props fits the map (a type check: npm run typecheck compiles this file).
    const components: CwaComponentMap = { ...cwaComponents, HtmlContent: Quote }
    const { html } = await render('/', { components })
    expect(html).toContain('<blockquote>This site is served by payload-cwa.</blockquote>')
  })

  it('uses the app’s own page template and layout, by their uiComponent', async () => {
    const Template = ({ page, group }: CwaTemplateProps): ReactNode =>
      createElement('article', { 'data-template': page.page.uiComponent }, group('home_main'))
    const Layout = ({ children, group }: { children: ReactNode; group: (reference: string) => ReactNode }) =>
      createElement('div', { id: 'site' }, createElement('nav', null, group('primary_top')), children)
    const { html } = await render('/', {
      templates: { PrimaryPageTemplate: Template },
      layouts: { PrimaryLayout: Layout as never },
    })
    expect(html).toMatch(
      /^<div id="site"><nav>.*<\/nav><article data-template="PrimaryPageTemplate">.*Welcome.*<\/article><\/div>$/s,
    )
  })
})
