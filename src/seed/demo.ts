import { createLocalReq, type Payload, type PayloadRequest } from 'payload'
import sharp from 'sharp'
import { getOptions, getRegistry, publishableOf } from 'payload-cwa'

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
    return (await payload.create({ collection: collection as never, data: full as never, depth: 0, req })) as {
      id: string
    }
  }
  const group = (reference: string, location: string, allowedComponents?: string[]) =>
    create('component_groups', { reference, location, ...(allowedComponents ? { allowedComponents } : {}) })
  const place = (
    componentGroup: string,
    relationTo: string | null,
    id: string | null,
    sortValue: number,
    binding?: object,
  ) =>
    create('component_positions', {
      componentGroup,
      sortValue,
      ...(relationTo && id ? { component: { relationTo, value: id } } : {}),
      ...(binding ?? {}),
    })
  const html = (text: string) => create('html_contents', { html: text })

  /*
   * With `compat: 'cwa-nuxt'` the demo follows the CWA Nuxt module's
   * conventions, so its playground shows this content: the layout and page
   * templates are named as its own admin forms store them (a layout by its
   * component name, CwaLayoutPrimary; a page by the name without the CwaPage
   * prefix, PrimaryPageTemplate, as a page made in the module), and a group's reference is
   * `{reference}_{owner IRI as served}` (`top_/_api/_/layouts/<id>`), as its
   * <CwaComponentGroup reference="top" :location="layoutIri"> looks it up.
   */
  const options = getOptions(payload.config)
  const compat = options.compat === 'cwa-nuxt'
  const servedIri = (slug: string, id: string) => {
    const iri = registry.itemIri(slug, id)
    return options.compatIrisWithoutPrefix && iri.startsWith(`${apiPrefix}/`) ? iri.slice(apiPrefix.length) : iri
  }
  /** A group owned by a layout or page: created after its owner (its reference may name the owner's IRI) and added to it. */
  const ownedGroup = async (
    owner: { slug: 'layouts' | 'pages'; id: string },
    names: { plain: string; compat: string },
    location: string,
    allowedComponents?: string[],
  ) => {
    const reference = compat ? `${names.compat}_${servedIri(owner.slug, owner.id)}` : names.plain
    const created = await group(reference, location, allowedComponents)
    const current = (await payload.findByID({ collection: owner.slug, id: owner.id, depth: 0, req })) as {
      componentGroups?: string[]
    }
    await payload.update({
      collection: owner.slug,
      id: owner.id,
      data: { componentGroups: [...(current.componentGroups ?? []), created.id] } as never,
      depth: 0,
      req,
    })
    return created
  }
  const pageTemplate = 'PrimaryPageTemplate'

  const layout = await create('layouts', {
    reference: 'primary',
    uiComponent: compat ? 'CwaLayoutPrimary' : 'PrimaryLayout',
  })
  const header = await ownedGroup({ slug: 'layouts', id: layout.id }, { plain: 'primary_top', compat: 'top' }, 'header')
  const footer = await ownedGroup(
    { slug: 'layouts', id: layout.id },
    { plain: 'primary_bottom', compat: 'bottom' },
    'footer',
  )

  const home = await create('pages', {
    reference: 'home',
    title: 'Home',
    metaDescription: 'Welcome to the demo site',
    layout: layout.id,
    uiComponent: pageTemplate,
  })
  const homeMain = await ownedGroup({ slug: 'pages', id: home.id }, { plain: 'home_main', compat: 'primary' }, 'main')
  const homeRoute = await create('routes', { path: '/', page: home.id })
  await place(homeMain.id, 'titles', (await create('titles', { title: 'Welcome' })).id, 0)
  await place(homeMain.id, 'html_contents', (await html('<p>This site is served by payload-cwa.</p>')).id, 1)
  // The demo image goes through the uploads feature like any upload (a data URI on its file property).
  const image = await create('images', { file: `data:image/jpeg;base64,${(await demoImage()).toString('base64')}` })
  await place(homeMain.id, 'images', image.id, 2)

  const blog = await create('pages', { reference: 'blog', title: 'Blog', layout: layout.id, uiComponent: pageTemplate })
  const blogMain = await ownedGroup({ slug: 'pages', id: blog.id }, { plain: 'blog_main', compat: 'primary' }, 'main')
  const blogRoute = await create('routes', { path: '/blog', page: blog.id })
  const listing = await create('collections', { resourceIri: `${apiPrefix}/page_data/blog_article_datas`, perPage: 12 })
  await place(blogMain.id, 'collections', listing.id, 0)

  const template = await create('pages', {
    reference: 'blog_article_template',
    title: 'Blog article',
    isTemplate: true,
    layout: layout.id,
    uiComponent: compat ? pageTemplate : 'BlogArticleTemplate',
  })
  const articleMain = await ownedGroup(
    { slug: 'pages', id: template.id },
    { plain: 'blog_article_main', compat: 'primary' },
    'main',
    [`${apiPrefix}/component/html_contents`],
  )
  await place(articleMain.id, null, null, 0, { pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' })

  const articles = [
    { title: 'First article', path: '/blog/first-article', body: '<p>The first article of the demo blog.</p>' },
    { title: 'Second article', path: '/blog/second-article', body: '<p>The second article of the demo blog.</p>' },
  ]
  for (const [index, article] of articles.entries()) {
    const content = await html(article.body)
    const data = await create('blog_article_datas', {
      title: article.title,
      page: template.id,
      parentPage: blog.id,
      htmlContent: content.id,
      ...(index === 0 ? { image: image.id } : {}),
    })
    await create('routes', { path: article.path, pageData: { relationTo: 'blog_article_datas', value: data.id } })
  }

  const contact = await create('pages', {
    reference: 'contact',
    title: 'Contact',
    layout: layout.id,
    uiComponent: pageTemplate,
  })
  const contactMain = await ownedGroup(
    { slug: 'pages', id: contact.id },
    { plain: 'contact_main', compat: 'primary' },
    'main',
  )
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
