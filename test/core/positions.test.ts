import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { PASSWORD, startTestServer, type TestServer } from '../support/server'
import { postFixture } from '../support/fixtures'

/**
 * Component groups and positions: the allowedComponents list, the
 * pageDataClass/pageDataProperty pair rules (service contract, "Layout, Page,
 * PageData, Route" rules 3-5) and dynamic positions resolved from the `path`
 * request header.
 */

let server: TestServer
let admin: string

const HTML_CONTENTS = '/_api/component/html_contents'
const TITLES = '/_api/component/titles'
const FILE_DOWNLOADS = '/_api/component/file_downloads'

let layout: string
let page: string
let openGroup: string // no allowedComponents

const create = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, admin)

let counter = 0
const ref = (name: string) => `${name}-${++counter}`

async function group(allowedComponents?: string[]): Promise<string> {
  const body: Record<string, unknown> = { reference: ref('group'), location: 'main' }
  if (allowedComponents) body.allowedComponents = allowedComponents
  return (await create('/_api/_/component_groups', body))['@id']
}

async function positionCount(): Promise<number> {
  const { rows } = await query('SELECT count(*)::int AS n FROM _acb_component_positions')
  return rows[0].n
}

async function query(sql: string, params: unknown[] = []): Promise<{ rows: any[] }> {
  return { rows: await server.sql(sql, params) }
}

function violationPaths(body: any): string[] {
  return (body?.violations ?? []).map((v: { propertyPath: string }) => v.propertyPath)
}

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  layout = (await create('/_api/_/layouts', { reference: 'main-layout' }))['@id']
  page = (
    await create('/_api/_/pages', { reference: 'blog-template', title: 'Blog template', layout, isTemplate: true })
  )['@id']
  openGroup = await group()
})
afterAll(async () => {
  await server?.close()
})

describe('component position: the pageDataClass / pageDataProperty pair', () => {
  it('refuses pageDataClass without pageDataProperty (422, violation on pageDataProperty), nothing saved', async () => {
    const before = await positionCount()
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataClass: 'BlogArticleData' },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(response.body['@type']).toBe('ConstraintViolation')
    expect(violationPaths(response.body)).toEqual(['pageDataProperty'])
    expect(await positionCount()).toBe(before)
  })

  it('refuses pageDataProperty without pageDataClass (422, violation on pageDataClass)', async () => {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataProperty: 'htmlContent' },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataClass'])
  })

  it('treats an empty string as unset: pageDataClass "" with a property is a missing class', async () => {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataClass: '', pageDataProperty: 'htmlContent' },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataClass'])
  })

  it('refuses an unknown page data class (422 on pageDataClass)', async () => {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataClass: 'NoSuchData', pageDataProperty: 'htmlContent' },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataClass'])
  })

  it('refuses a class that is a resource but not a page data type (HtmlContent, Page)', async () => {
    for (const pageDataClass of ['HtmlContent', 'Page']) {
      const response = await server.post(
        '/_api/_/component_positions',
        { componentGroup: openGroup, pageDataClass, pageDataProperty: 'htmlContent' },
        { token: admin },
      )
      expect(response.status).toBe(422)
      expect(violationPaths(response.body)).toEqual(['pageDataClass'])
    }
  })

  it.each([
    ['BlogArticleData', 'title', 'a string property'],
    ['NewsArticleData', 'summary', 'a textarea property'],
    ['BlogArticleData', 'page', 'a relation to a Page, not a component'],
    ['BlogArticleData', 'route', 'the route join'],
    ['BlogArticleData', 'parentPageData', 'a relation to page data'],
    ['BlogArticleData', 'noSuchProperty', 'an unknown property'],
  ])('refuses %s.%s (%s): not component-typed, 422 on pageDataProperty', async (pageDataClass, pageDataProperty) => {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataClass, pageDataProperty },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataProperty'])
  })

  it('accepts a valid binding (BlogArticleData.htmlContent) with 201 and stores both', async () => {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent', sortValue: 1 },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body).toMatchObject({
      '@type': 'ComponentPosition',
      componentGroup: openGroup,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
      component: null,
    })
    const { rows } = await query(
      'SELECT page_data_class, page_data_property FROM _acb_component_positions WHERE id = $1',
      [response.body.id],
    )
    expect(rows).toEqual([{ page_data_class: 'BlogArticleData', page_data_property: 'htmlContent' }])
  })

  it('accepts an Image property of another page data type (NewsArticleData.image)', async () => {
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, pageDataClass: 'NewsArticleData', pageDataProperty: 'image' },
      { token: admin },
    )
    expect(response.status).toBe(201)
  })

  it('PATCH that removes only pageDataClass is 422 on pageDataClass and changes nothing', async () => {
    const created = await create('/_api/_/component_positions', {
      componentGroup: openGroup,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
      sortValue: 5,
    })
    const response = await server.patch(created['@id'], { pageDataClass: null, sortValue: 9 }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataClass'])
    const after = await server.get(created['@id'])
    expect(after.body).toMatchObject({
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
      sortValue: 5,
    })
  })

  it('PATCH that removes only pageDataProperty is 422 on pageDataProperty and changes nothing', async () => {
    const created = await create('/_api/_/component_positions', {
      componentGroup: openGroup,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
    const response = await server.patch(created['@id'], { pageDataProperty: '' }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataProperty'])
    const after = await server.get(created['@id'])
    expect(after.body).toMatchObject({ pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' })
  })

  it('PATCH that changes the property to a non-component one is 422 and changes nothing', async () => {
    const created = await create('/_api/_/component_positions', {
      componentGroup: openGroup,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
    const response = await server.patch(created['@id'], { pageDataProperty: 'title' }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataProperty'])
    expect((await server.get(created['@id'])).body.pageDataProperty).toBe('htmlContent')
  })

  it('PATCH that adds only pageDataClass to a plain position is 422', async () => {
    const created = await create('/_api/_/component_positions', { componentGroup: openGroup })
    const response = await server.patch(created['@id'], { pageDataClass: 'BlogArticleData' }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataProperty'])
    expect((await server.get(created['@id'])).body.pageDataClass).toBeNull()
  })

  it('PATCH that removes both at once is accepted', async () => {
    const created = await create('/_api/_/component_positions', {
      componentGroup: openGroup,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
    const response = await server.patch(
      created['@id'],
      { pageDataClass: null, pageDataProperty: null },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ pageDataClass: null, pageDataProperty: null })
  })
})

describe('component position: required group', () => {
  it('refuses a position without componentGroup (422 on componentGroup)', async () => {
    const response = await server.post('/_api/_/component_positions', { sortValue: 1 }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toContain('componentGroup')
  })
})

describe('component position: allowedComponents of the group', () => {
  it('refuses a binding whose resolved type the group does not allow (422 on pageDataProperty)', async () => {
    const titlesOnly = await group([TITLES])
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: titlesOnly, pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['pageDataProperty'])
  })

  it('accepts a binding whose resolved type the group names (201)', async () => {
    const htmlAllowed = await group([TITLES, HTML_CONTENTS])
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: htmlAllowed, pageDataClass: 'BlogArticleData', pageDataProperty: 'htmlContent' },
      { token: admin },
    )
    expect(response.status).toBe(201)
  })

  it('refuses a component whose type the group does not allow (422 on component), accepts an allowed one', async () => {
    const htmlOnly = await group([HTML_CONTENTS])
    const title = await create('/_api/component/titles', { title: 'Hello' })
    const html = await create('/_api/component/html_contents', { html: '<p>x</p>' })
    const refused = await server.post(
      '/_api/_/component_positions',
      { componentGroup: htmlOnly, component: title['@id'] },
      { token: admin },
    )
    expect(refused.status).toBe(422)
    expect(violationPaths(refused.body)).toEqual(['component'])
    const accepted = await server.post(
      '/_api/_/component_positions',
      { componentGroup: htmlOnly, component: html['@id'] },
      { token: admin },
    )
    expect(accepted.status).toBe(201)
    expect(accepted.body.component).toBe(html['@id'])
  })

  it('accepts any ordinary component in a group without allowedComponents', async () => {
    const title = await create('/_api/component/titles', { title: 'Anywhere' })
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, component: title['@id'] },
      { token: admin },
    )
    expect(response.status).toBe(201)
  })

  it('PATCH moving a position into a group that does not allow its component is 422 and changes nothing', async () => {
    const title = await create('/_api/component/titles', { title: 'Mover' })
    const position = await create('/_api/_/component_positions', { componentGroup: openGroup, component: title['@id'] })
    const htmlOnly = await group([HTML_CONTENTS])
    const response = await server.patch(position['@id'], { componentGroup: htmlOnly }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['component'])
    expect((await server.get(position['@id'])).body.componentGroup).toBe(openGroup)
  })
})

describe('component position: explicit-allow-only components (FileDownload)', () => {
  let fileDownload: string
  beforeAll(async () => {
    fileDownload = (await create('/_api/component/file_downloads', {}))['@id']
  })

  it('refuses a FileDownload in a group without allowedComponents (422 on component)', async () => {
    const before = await positionCount()
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: openGroup, component: fileDownload },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['component'])
    expect(await positionCount()).toBe(before)
  })

  it('refuses a FileDownload in a group whose allowedComponents does not name it', async () => {
    const others = await group([HTML_CONTENTS, TITLES])
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: others, component: fileDownload },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['component'])
  })

  it('accepts a FileDownload in a group that names it (201)', async () => {
    const downloads = await group([FILE_DOWNLOADS])
    const response = await server.post(
      '/_api/_/component_positions',
      { componentGroup: downloads, component: fileDownload },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body.component).toBe(fileDownload)
  })

  it('refuses a FileDownload kept as the fallback component of a valid binding in an open group', async () => {
    const response = await server.post(
      '/_api/_/component_positions',
      {
        componentGroup: openGroup,
        component: fileDownload,
        pageDataClass: 'BlogArticleData',
        pageDataProperty: 'htmlContent',
      },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['component'])
  })

  it('refuses a binding plus a fallback component whose type the group does not allow', async () => {
    const htmlOnly = await group([HTML_CONTENTS])
    const title = await create('/_api/component/titles', { title: 'Fallback' })
    const response = await server.post(
      '/_api/_/component_positions',
      {
        componentGroup: htmlOnly,
        component: title['@id'],
        pageDataClass: 'BlogArticleData',
        pageDataProperty: 'htmlContent',
      },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['component'])
  })

  it('refuses a PATCH that puts a FileDownload into an existing open position', async () => {
    const position = await create('/_api/_/component_positions', { componentGroup: openGroup })
    const response = await server.patch(position['@id'], { component: fileDownload }, { token: admin })
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)).toEqual(['component'])
    expect((await server.get(position['@id'])).body.component).toBeNull()
  })
})

describe('component group: allowedComponents holds component collection IRIs', () => {
  it('stores entries in the canonical form (without the API prefix), serves them with it, without duplicates', async () => {
    const response = await server.post(
      '/_api/_/component_groups',
      {
        reference: ref('prefixless'),
        location: 'main',
        allowedComponents: [
          '/component/html_contents',
          `${server.url}/_api/component/titles`,
          '/_api/component/html_contents/',
        ],
      },
      { token: admin },
    )
    expect(response.status).toBe(201)
    expect(response.body.allowedComponents).toEqual([HTML_CONTENTS, TITLES])
    const { rows } = await query('SELECT allowed_components AS value FROM _acb_component_groups WHERE id = $1', [
      response.body.id,
    ])
    expect(rows[0].value).toEqual(['/component/html_contents', '/component/titles'])
  })

  it.each([
    ['a garbage string', 'not an iri'],
    ['an unknown collection', '/_api/component/nothing_here'],
    ['a component item IRI', '/_api/component/html_contents/7f0e5a40-57a7-4d3b-9b8d-2f64b1f0c001'],
    ['a page data collection IRI', '/_api/page_data/blog_article_datas'],
    ['a core collection IRI', '/_api/_/pages'],
    ['an empty string', ''],
  ])('refuses %s with 422 on allowedComponents and saves nothing', async (_label, entry) => {
    const reference = ref('bad-allowed')
    const response = await server.post(
      '/_api/_/component_groups',
      { reference, location: 'main', allowedComponents: [HTML_CONTENTS, entry] },
      { token: admin },
    )
    expect(response.status).toBe(422)
    expect(violationPaths(response.body)[0]).toMatch(/^allowedComponents/)
    const { rows } = await query('SELECT count(*)::int AS n FROM _acb_component_groups WHERE reference = $1', [
      reference,
    ])
    expect(rows[0].n).toBe(0)
  })

  it('refuses a non-string entry (422, never 500)', async () => {
    const response = await server.post(
      '/_api/_/component_groups',
      { reference: ref('number-allowed'), location: 'main', allowedComponents: [42] },
      { token: admin },
    )
    expect(response.status).toBe(422)
  })

  it('PATCH with a bad entry is 422 and keeps the stored list', async () => {
    const id = await group([TITLES])
    const response = await server.patch(id, { allowedComponents: [HTML_CONTENTS, '/_api/_/layouts'] }, { token: admin })
    expect(response.status).toBe(422)
    expect((await server.get(id)).body.allowedComponents).toEqual([TITLES])
  })

  it('PATCH with a prefixless list normalizes it; null clears it', async () => {
    const id = await group([TITLES])
    const patched = await server.patch(id, { allowedComponents: ['/component/file_downloads'] }, { token: admin })
    expect(patched.status).toBe(200)
    expect(patched.body.allowedComponents).toEqual([FILE_DOWNLOADS])
    const cleared = await server.patch(id, { allowedComponents: null }, { token: admin })
    expect(cleared.status).toBe(200)
    // null stays null (issue 15): no list, not an empty one.
    expect(cleared.body.allowedComponents).toBeNull()
  })
})

describe('dynamic positions: resolved from the `path` request header', () => {
  let html: string
  let otherHtml: string
  let article: Record<string, any>
  let emptyArticle: Record<string, any>
  let news: Record<string, any>
  let bound: string
  let boundGroup: string

  beforeAll(async () => {
    html = (await create('/_api/component/html_contents', { html: '<p>article body</p>' }))['@id']
    otherHtml = (await create('/_api/component/html_contents', { html: '<p>other body</p>' }))['@id']
    article = await create('/_api/page_data/blog_article_datas', { title: 'Article X', page, htmlContent: html })
    emptyArticle = await create('/_api/page_data/blog_article_datas', { title: 'No content', page })
    await create('/_api/page_data/blog_article_datas', { title: 'Article Y', page, htmlContent: otherHtml })
    news = await create('/_api/page_data/news_article_datas', { title: 'News', page, summary: 'S' })
    await create('/_api/_/routes', { path: '/blog/x', pageData: article['@id'] })
    await create('/_api/_/routes', { path: '/blog/empty', pageData: emptyArticle['@id'] })
    await create('/_api/_/routes', { path: '/news/n', pageData: news['@id'] })
    await create('/_api/_/routes', { path: '/about', page })
    boundGroup = await group()
    bound = (
      await create('/_api/_/component_positions', {
        componentGroup: boundGroup,
        pageDataClass: 'BlogArticleData',
        pageDataProperty: 'htmlContent',
      })
    )['@id']
  })

  it('resolves component from a route path header (path: /blog/x)', async () => {
    const response = await server.get(bound, { headers: { path: '/blog/x' } })
    expect(response.status).toBe(200)
    expect(response.body.component).toBe(html)
  })

  it('resolves component from a page data IRI header', async () => {
    const response = await server.get(bound, { headers: { path: article['@id'] } })
    expect(response.status).toBe(200)
    expect(response.body.component).toBe(html)
  })

  it('resolves component from a page data IRI sent without the API prefix', async () => {
    const response = await server.get(bound, { headers: { path: `/page_data/blog_article_datas/${article.id}` } })
    expect(response.body.component).toBe(html)
  })

  it('leaves component null without the header', async () => {
    const response = await server.get(bound)
    expect(response.status).toBe(200)
    expect(response.body.component).toBeNull()
  })

  it('leaves component null for a route or IRI of another page data type', async () => {
    for (const path of ['/news/n', news['@id']]) {
      const response = await server.get(bound, { headers: { path } })
      expect(response.status).toBe(200)
      expect(response.body.component).toBeNull()
    }
  })

  it('leaves component null for a route to a page, an unknown route, an unknown IRI and garbage', async () => {
    for (const path of [
      '/about',
      '/no/such/route',
      '/_api/page_data/blog_article_datas/7f0e5a40-57a7-4d3b-9b8d-2f64b1f0c0ff',
      'garbage',
    ]) {
      const response = await server.get(bound, { headers: { path } })
      expect(response.status).toBe(200)
      expect(response.body.component).toBeNull()
    }
  })

  it('leaves component null when the page data holds no component in that property', async () => {
    const response = await server.get(bound, { headers: { path: '/blog/empty' } })
    expect(response.body.component).toBeNull()
  })

  it('never stores the resolved component', async () => {
    await server.get(bound, { headers: { path: '/blog/x' } })
    const { rows } = await query('SELECT count(*)::int AS n FROM _acb_component_positions_rels WHERE parent_id = $1', [
      bound.split('/').pop(),
    ])
    expect(rows[0].n).toBe(0)
  })

  it('shows the stored component as the fallback when nothing resolves, and the page data component when it does', async () => {
    const fallback = (await create('/_api/component/html_contents', { html: '<p>fallback</p>' }))['@id']
    const position = (
      await create('/_api/_/component_positions', {
        componentGroup: boundGroup,
        component: fallback,
        pageDataClass: 'BlogArticleData',
        pageDataProperty: 'htmlContent',
      })
    )['@id']
    expect((await server.get(position)).body.component).toBe(fallback)
    expect((await server.get(position, { headers: { path: '/news/n' } })).body.component).toBe(fallback)
    expect((await server.get(position, { headers: { path: '/blog/x' } })).body.component).toBe(html)
  })

  it('resolves bound members inside a collection GET, and leaves plain positions alone', async () => {
    const title = (await create('/_api/component/titles', { title: 'Static' }))['@id']
    const plain = (
      await create('/_api/_/component_positions', { componentGroup: boundGroup, component: title, sortValue: 2 })
    )['@id']
    const response = await server.get(`/_api/_/component_positions?itemsPerPage=100`, { headers: { path: '/blog/x' } })
    expect(response.status).toBe(200)
    const byId = new Map<string, any>(response.body.member.map((m: any) => [m['@id'], m]))
    expect(byId.get(bound)?.component).toBe(html)
    expect(byId.get(plain)?.component).toBe(title)

    const withoutHeader = await server.get(`/_api/_/component_positions?itemsPerPage=100`)
    const unresolved = withoutHeader.body.member.find((m: any) => m['@id'] === bound)
    expect(unresolved.component).toBeNull()
  })

  it('switches with the header: another article resolves to its own component', async () => {
    const response = await server.get(bound, { headers: { path: '/_api/page_data/blog_article_datas/' + article.id } })
    expect(response.body.component).toBe(html)
    const articles = await server.get('/_api/page_data/blog_article_datas?itemsPerPage=50')
    const y = articles.body.member.find((m: any) => m.title === 'Article Y')
    const other = await server.get(bound, { headers: { path: y['@id'] } })
    expect(other.body.component).toBe(otherHtml)
  })
})

describe("the same rules guard Payload's REST API (/api)", () => {
  let payloadToken: string
  beforeAll(async () => {
    await server.createUser('rest-admin', ['ROLE_ADMIN'])
    const login = await server.request(
      'POST',
      '/api/users/login',
      { username: 'rest-admin', password: PASSWORD },
      { contentType: 'application/json' },
    )
    expect(login.status).toBe(200)
    payloadToken = login.body.token
  })
  const rest = (path: string, body: unknown) =>
    server.request('POST', path, body, {
      contentType: 'application/json',
      headers: { authorization: `JWT ${payloadToken}` },
    })

  it('refuses a FileDownload in an open group and a half binding', async () => {
    const fileDownload = (await create('/_api/component/file_downloads', {}))['id']
    const groupId = openGroup.split('/').pop()
    const before = await positionCount()
    const placed = await rest('/api/component_positions', {
      componentGroup: groupId,
      component: { relationTo: 'file_downloads', value: fileDownload },
    })
    expect(placed.status).toBe(400)
    const half = await rest('/api/component_positions', { componentGroup: groupId, pageDataClass: 'BlogArticleData' })
    expect(half.status).toBe(400)
    expect(await positionCount()).toBe(before)
  })

  it('refuses allowedComponents that is not a list of component collection IRIs, normalizes a valid one', async () => {
    const notList = await rest('/api/component_groups', {
      reference: ref('rest-group'),
      allowedComponents: '/_api/component/titles',
    })
    expect(notList.status).toBe(400)
    const garbage = await rest('/api/component_groups', { reference: ref('rest-group'), allowedComponents: ['nope'] })
    expect(garbage.status).toBe(400)
    const valid = await rest('/api/component_groups', {
      reference: ref('rest-group'),
      allowedComponents: ['/component/titles'],
    })
    expect(valid.status).toBe(201)
    // Payload's REST API shows the stored, canonical form.
    expect(valid.body.doc.allowedComponents).toEqual(['/component/titles'])
  })
})

describe('positions: write access', () => {
  it('refuses anonymous writes (401) and non-admin writes (403)', async () => {
    const anonymous = await server.post('/_api/_/component_positions', { componentGroup: openGroup })
    expect(anonymous.status).toBe(401)
    const user = await server.tokenFor('ROLE_USER')
    const forbidden = await server.post('/_api/_/component_positions', { componentGroup: openGroup }, { token: user })
    expect(forbidden.status).toBe(403)
  })
})
