/**
 * Issue 37, content types in the box: a bare app (test/support/minimalSite.ts, Payload's template's Lexical editor)
 * with `payload-cwa/content`'s types, imported one by one, gets rich text served as sanitized html, a heading, a
 * navigation link, an image type and an article page data type, publishable where the reference site's are (the
 * reference site declares its own types with the same functions: collections/components.ts). The attack the rich
 * text guards against: a script or an event handler written through the API and served to every visitor.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { lexicalEditor } from '@payloadcms/richtext-lexical'
import { article, heading, image, navigationLink, richText } from 'payload-cwa/content'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'

let site: MinimalSite
let admin: string

beforeAll(async () => {
  site = await startMinimalSite({
    collections: [richText(), image(), heading(), navigationLink(), article()],
    editor: lexicalEditor(),
  })
  admin = await site.tokenFor('ROLE_ADMIN')
})
afterAll(async () => {
  await site?.close()
})

const publish = (iri: string) => site.patch(iri, { publishedAt: new Date().toISOString() }, { token: admin })

describe("payload-cwa/content's types in a bare app", () => {
  it('are resources of their own, at their paths', async () => {
    const entry = await site.get('/_api/')
    expect(entry.body).toMatchObject({
      htmlContent: '/_api/component/html_contents',
      image: '/_api/component/images',
      title: '/_api/component/titles',
      navigationLink: '/_api/component/navigation_links',
      articleData: '/_api/page_data/article_datas',
    })
  })

  it('rich text: html written through the API is sanitized, its editor state derived; a draft until published', async () => {
    const created = await site.post(
      '/_api/component/html_contents',
      { html: '<p onclick="steal()">Hello <strong>world</strong><script>steal()</script></p>' },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(created.body.html).toBe('<p>Hello <strong>world</strong></p>')
    expect(created.body).not.toHaveProperty('content')
    const iri: string = created.body['@id']
    expect((await site.get(iri)).status).toBe(404)
    expect((await publish(iri)).status).toBe(200)
    const read = await site.get(iri)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({ '@type': 'HtmlContent', html: '<p>Hello <strong>world</strong></p>' })
    const [row] = await site.sql('SELECT content FROM _acb_html_contents WHERE id = $1', [iri.split('/').pop()])
    expect(JSON.stringify(row.content)).toContain('"text":"world"')
    // Payload's default editor (the template's lexicalEditor()) has its upload node: an <img> that is no upload of
    // the app is refused as a 422 on `content`, not stored half-converted (docs/adopting.md, "Content types in the box").
    const image = await site.post(
      '/_api/component/html_contents',
      { html: '<p>A<img src="x.png"></p>' },
      { token: admin },
    )
    expect(image.status).toBe(422)
    expect(image.body.violations).toEqual([expect.objectContaining({ propertyPath: 'content' })])
  })

  it('make a published page: a layout, a page, its group holding a rich text', async () => {
    const layout = await site.post('/_api/_/layouts', { reference: 'page-layout' }, { token: admin })
    const group = await site.post(
      '/_api/_/component_groups',
      { reference: 'home_body', location: 'body' },
      { token: admin },
    )
    const page = await site.post(
      '/_api/_/pages',
      { reference: 'home', title: 'Home', layout: layout.body['@id'], componentGroups: [group.body['@id']] },
      { token: admin },
    )
    expect([layout.status, group.status, page.status]).toEqual([201, 201, 201])
    const text = await site.post('/_api/component/html_contents', { html: '<h2>Hello</h2>' }, { token: admin })
    const position = await site.post(
      '/_api/_/component_positions',
      { componentGroup: group.body['@id'], component: text.body['@id'] },
      { token: admin },
    )
    expect(position.status).toBe(201)
    expect((await publish(text.body['@id'])).status).toBe(200)
    expect((await site.get(text.body['@id'])).body.html).toBe('<h2>Hello</h2>')
    const anonymousPage = await site.get(page.body['@id'])
    expect(anonymousPage.status).toBe(200)
    expect(anonymousPage.body.componentGroups).toEqual([group.body['@id']])
  })

  it('a heading is served at once; a navigation link is published with somewhere to go and serves its url', async () => {
    const title = await site.post('/_api/component/titles', { title: 'Welcome' }, { token: admin })
    expect(title.status).toBe(201)
    expect((await site.get(title.body['@id'])).body).toMatchObject({ '@type': 'Title', title: 'Welcome' })

    const link = await site.post('/_api/component/navigation_links', { label: 'Docs' }, { token: admin })
    expect(link.status).toBe(201)
    expect((await publish(link.body['@id'])).status).toBe(422)
    expect((await site.patch(link.body['@id'], { rawPath: '/docs' }, { token: admin })).status).toBe(200)
    expect((await publish(link.body['@id'])).status).toBe(200)
    expect((await site.get(link.body['@id'])).body).toMatchObject({ label: 'Docs', url: '/docs' })
  })

  it('an article page data record links a rich text and an image; the image type takes its alt text', async () => {
    const text = await site.post('/_api/component/html_contents', { html: '<p>Body</p>' }, { token: admin })
    // Page data renders through a template page.
    const layout = await site.post('/_api/_/layouts', { reference: 'main' }, { token: admin })
    const template = await site.post(
      '/_api/_/pages',
      { reference: 'article', title: 'Article', layout: layout.body['@id'], isTemplate: true },
      { token: admin },
    )
    expect(template.status).toBe(201)
    const created = await site.post(
      '/_api/page_data/article_datas',
      { title: 'First', htmlContent: text.body['@id'], page: template.body['@id'] },
      { token: admin },
    )
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ '@type': 'ArticleData', title: 'First', htmlContent: text.body['@id'] })
    const docs = await site.get('/_api/docs.json', { headers: { accept: 'application/json' } })
    // The box's publishable types bring the publishing endpoint along.
    expect(Object.keys(docs.body.paths)).toEqual(expect.arrayContaining(['/_api/component/images', '/_api/_/publish']))
    expect(JSON.stringify(docs.body.components?.schemas ?? {})).toContain('"alt"')
  })
})
