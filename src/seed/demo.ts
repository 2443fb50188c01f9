import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import sharp from 'sharp'
import { getRegistry, publishableOf } from 'payload-cwa'

/**
 * Seeds the demo site on an empty database: a layout with header and footer
 * groups, a home page, a blog listing page with a Collection component, two
 * blog articles with routes, a contact page with the example form, and one
 * image (made with sharp here: on the home page and the first article).
 * One transaction: a failed seed leaves nothing behind.
 */
export async function seedDemo(payload: Payload, { apiPrefix }: { apiPrefix: string }): Promise<boolean> {
  const { totalDocs } = await payload.count({ collection: 'layouts' })
  if (totalDocs > 0) return false
  const req = await createLocalReq({}, payload)
  req.transactionID = (await payload.db.beginTransaction()) ?? undefined
  try {
    await seed(payload, req, apiPrefix)
    await payload.db.commitTransaction(req.transactionID!)
    payload.logger.info('Seeded the demo site (SEED_DEMO=0 turns this off)')
    return true
  } catch (error) {
    await payload.db.rollbackTransaction(req.transactionID!)
    throw error
  }
}

async function seed(payload: Payload, req: PayloadRequest, apiPrefix: string): Promise<void> {
  const registry = getRegistry(payload.config)
  const publishedAt = new Date().toISOString()
  // The demo is live: publishable records are created published.
  const create = async (collection: string, data: Record<string, unknown>) => {
    const resource = registry.bySlug(collection)
    const names = resource ? publishableOf(resource) : null
    const full = names ? { [names.publishedAt]: publishedAt, ...data } : data
    return (await payload.create({ collection: collection as never, data: full as never, depth: 0, req })) as { id: string }
  }
  const group = (reference: string, location: string, allowedComponents?: string[]) =>
    create('component_groups', { reference, location, ...(allowedComponents ? { allowedComponents } : {}) })
  const place = (componentGroup: string, relationTo: string | null, id: string | null, sortValue: number, binding?: object) =>
    create('component_positions', {
      componentGroup,
      sortValue,
      ...(relationTo && id ? { component: { relationTo, value: id } } : {}),
      ...(binding ?? {}),
    })
  const html = (text: string) => create('html_contents', { html: text })

  const header = await group('primary_top', 'header')
  const footer = await group('primary_bottom', 'footer')
  const layout = await create('layouts', { reference: 'primary', uiComponent: 'PrimaryLayout', componentGroups: [header.id, footer.id] })

  const homeMain = await group('home_main', 'main')
  const home = await create('pages', { reference: 'home', title: 'Home', metaDescription: 'Welcome to the demo site', layout: layout.id, componentGroups: [homeMain.id], uiComponent: 'PrimaryPageTemplate' })
  const homeRoute = await create('routes', { path: '/', page: home.id })
  await place(homeMain.id, 'titles', (await create('titles', { title: 'Welcome' })).id, 0)
  await place(homeMain.id, 'html_contents', (await html('<p>This site is served by payload-cwa.</p>')).id, 1)
  // The demo image goes through the uploads feature like any upload (a data URI on its file property).
  const image = await create('images', { file: `data:image/jpeg;base64,${(await demoImage()).toString('base64')}` })
  await place(homeMain.id, 'images', image.id, 2)

  const blogMain = await group('blog_main', 'main')
  const blog = await create('pages', { reference: 'blog', title: 'Blog', layout: layout.id, componentGroups: [blogMain.id], uiComponent: 'PrimaryPageTemplate' })
  const blogRoute = await create('routes', { path: '/blog', page: blog.id })
  const listing = await create('collections', { resourceIri: `${apiPrefix}/page_data/blog_article_datas`, perPage: 12 })
  await place(blogMain.id, 'collections', listing.id, 0)

  const articleMain = await group('blog_article_main', 'main', [`${apiPrefix}/component/html_contents`])
  const template = await create('pages', { reference: 'blog_article_template', title: 'Blog article', isTemplate: true, layout: layout.id, componentGroups: [articleMain.id], uiComponent: 'BlogArticleTemplate' })
  await place(articleMain.id, null, null, 0, { pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' })

  const articles = [
    { title: 'First article', path: '/blog/first-article', body: '<p>The first article of the demo blog.</p>' },
    { title: 'Second article', path: '/blog/second-article', body: '<p>The second article of the demo blog.</p>' },
  ]
  for (const [index, article] of articles.entries()) {
    const content = await html(article.body)
    const data = await create('blog_article_datas', { title: article.title, page: template.id, parentPage: blog.id, htmlContent: content.id, ...(index === 0 ? { image: image.id } : {}) })
    await create('routes', { path: article.path, pageData: { relationTo: 'blog_article_datas', value: data.id } })
  }

  const contactMain = await group('contact_main', 'main')
  const contact = await create('pages', { reference: 'contact', title: 'Contact', layout: layout.id, componentGroups: [contactMain.id], uiComponent: 'PrimaryPageTemplate' })
  const contactRoute = await create('routes', { path: '/contact', page: contact.id })
  await place(contactMain.id, 'forms', (await create('forms', { formType: 'ExampleFormType' })).id, 0)

  const nav = [
    { label: 'Home', route: homeRoute.id },
    { label: 'Blog', route: blogRoute.id },
    { label: 'Contact', route: contactRoute.id },
  ]
  for (const [index, link] of nav.entries()) {
    await place(header.id, 'navigation_links', (await create('navigation_links', link)).id, index)
  }
  await place(footer.id, 'html_contents', (await html('<p>© payload-cwa demo</p>')).id, 0)
}

/** A 1200×630 banner (a diagonal gradient), as a JPEG. */
async function demoImage(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1d4ed8"/><stop offset="1" stop-color="#f97316"/></linearGradient></defs><rect width="1200" height="630" fill="url(#g)"/></svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer()
}
