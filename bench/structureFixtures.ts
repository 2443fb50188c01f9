/**
 * Site structure fixtures through the Local API (fast, no access checks),
 * shared by the bench and the route manifest tests.
 */
import type { Payload } from 'payload'

export const PAST = '2020-01-02T03:04:05.000Z'

const SEGMENTS: Record<string, string> = {
  pages: '_/pages',
  layouts: '_/layouts',
  routes: '_/routes',
  component_groups: '_/component_groups',
  component_positions: '_/component_positions',
  html_contents: 'component/html_contents',
  blog_article_datas: 'page_data/blog_article_datas',
  news_article_datas: 'page_data/news_article_datas',
}

export function builder(payload: Payload) {
  let n = 0
  const make = async (collection: string, data: Record<string, unknown>): Promise<string> =>
    String((await payload.create({ collection: collection as never, data: data as never, depth: 0 })).id)
  const b = {
    make,
    iri: (collection: string, id: string) => `/_api/${SEGMENTS[collection]}/${id}`,
    group: (reference = `group-${++n}`) => make('component_groups', { reference, location: reference }),
    /** A published HtmlContent. */
    html: (html = `<p>${++n}</p>`, extra: Record<string, unknown> = {}) =>
      make('html_contents', { html, publishedAt: PAST, ...extra }),
    position: (group: string, component: string | null, sortValue = 0, extra: Record<string, unknown> = {}) =>
      make('component_positions', {
        componentGroup: group,
        ...(component ? { component: { relationTo: 'html_contents', value: component } } : {}),
        sortValue,
        ...extra,
      }),
    layout: (groups: string[] = []) => make('layouts', { reference: `layout-${++n}`, componentGroups: groups }),
    page: (layout: string, extra: Record<string, unknown> = {}) =>
      make('pages', { reference: `page-${++n}`, title: `Page ${n}`, layout, ...extra }),
    article: (template: string, extra: Record<string, unknown> = {}) =>
      make('blog_article_datas', { title: `Article ${++n}`, page: template, ...extra }),
    route: (path: string, target: Record<string, unknown>) => make('routes', { path, ...target }),
    articleRef: (id: string) => ({ relationTo: 'blog_article_datas', value: id }),
    /** A group holding `count` published HtmlContents, one position each. */
    async filledGroup(count: number): Promise<string> {
      const group = await b.group()
      for (let i = 0; i < count; i++) await b.position(group, await b.html(), i)
      return group
    },
  }
  return b
}

export type Builder = ReturnType<typeof builder>

/**
 * Three rendering depths with n + 1 components: /<name> (a page whose layout
 * has a group) > /<name>/article (page data through a template with a
 * dynamic position) > /<name>/article/child (a page whose components each
 * own a nested group with one more component). n/5 components per group
 * kind (nested ones counted), plus the article's own.
 */
export async function manifestSite(b: Builder, name: string, n: number): Promise<string> {
  const per = Math.max(1, Math.floor(n / 5))
  const layout = await b.layout([await b.filledGroup(per)])
  const root = await b.page(layout, { componentGroups: [await b.filledGroup(per)] })
  const templateGroup = await b.filledGroup(per)
  await b.position(templateGroup, null, -1, { pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' })
  const template = await b.page(layout, { isTemplate: true, componentGroups: [templateGroup] })
  const article = await b.article(template, { parentPage: root, htmlContent: await b.html() })
  const childGroup = await b.group()
  for (let i = 0; i < per; i++) {
    const nested = await b.filledGroup(1)
    await b.position(childGroup, await b.html(`<p>${i}</p>`, { componentGroups: [nested] }), i)
  }
  const child = await b.page(await b.layout(), { parentPageData: b.articleRef(article), componentGroups: [childGroup] })
  await b.route(`/${name}`, { page: root })
  await b.route(`/${name}/article`, { pageData: b.articleRef(article) })
  await b.route(`/${name}/article/child`, { page: child })
  return `/${name}/article/child`
}
