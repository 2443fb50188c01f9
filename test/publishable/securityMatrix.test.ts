/**
 * Security matrix of the publishable behaviour (issue 4, "Robustness"; service
 * contract "Publishable fields", "States and transitions > Publishable
 * component or page data", read routing table).
 *
 * Every draft written here carries a unique marker string in its html,
 * label, title or summary. For each caller who may not see drafts
 * (anonymous, a signed-in ROLE_USER, and a ROLE_ADMIN who may write but does
 * not hold the publish permission) and each read path, the tests show that
 * no response body contains a marker, and that the permitted caller (here
 * ROLE_SUPER_ADMIN: the server runs with publishable.permission =
 * ROLE_SUPER_ADMIN) does see the drafts where the contract says.
 *
 * Each `describe` names the attack it guards against. Real HTTP, real
 * PostgreSQL: the JSON-LD API and Payload's own REST API of the same server.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { configToSchema } from '@payloadcms/graphql'
import { type ExecutionResult, graphql, type GraphQLSchema } from 'graphql'
import { randomBytes } from 'node:crypto'
import { createLocalReq } from 'payload'
import { PASSWORD, startTestServer, type TestResponse, type TestServer } from '../support/server'
import { postFixture } from '../support/fixtures'

let server: TestServer

/** Every draft marker starts with this: one search of a body finds any of them. */
const MARK = `zzdraft${randomBytes(5).toString('hex')}`
const secret = (name: string) => `${MARK}-${name}`
/** Content of published versions: what every caller must see. */
const PUBLIC = 'public-version'

type Caller = 'anonymous' | 'user' | 'adminWithoutPermission' | 'permitted'
const FORBIDDEN: Caller[] = ['anonymous', 'user', 'adminWithoutPermission']
/** JSON-LD API tokens (Bearer) and Payload REST tokens (`JWT`), by caller. */
const token: Partial<Record<Caller, string>> = {}
const restToken: Partial<Record<Caller, string>> = {}
const username: Partial<Record<Caller, string>> = {}
const userId: Partial<Record<Caller, string>> = {}

const past = () => new Date(Date.now() - 60_000).toISOString()
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString()

/** The fixtures: IRIs and ids of drafts, their published twins and the page tree around them. */
const f: Record<string, any> = {}
/** IRI -> marker of every draft. */
const drafts = new Map<string, string>()

const idOf = (iri: string) => iri.split('/').pop()!

async function as(caller: Caller, path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  return server.get(path, { token: token[caller], headers })
}

const create = (path: string, body: Record<string, unknown>) => postFixture(server, path, body, token.permitted)

/** A PATCH by the permitted caller; returns the record it now sees (the draft twin for a published record). */
async function patch(iri: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const response = await server.patch(iri, body, { token: token.permitted })
  if (response.status !== 200) throw new Error(`PATCH ${iri}: ${response.status} ${response.text}`)
  return response.body
}

/** Payload's REST API (/api), signed in with Payload's own token for signed-in callers. */
async function rest(caller: Caller, path: string, init: RequestInit = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...((init.headers as Record<string, string>) ?? {}) }
  if (restToken[caller]) headers.authorization = `JWT ${restToken[caller]}`
  const response = await fetch(`${server.url}${path}`, { ...init, headers })
  const text = await response.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    /* not JSON */
  }
  return { status: response.status, headers: response.headers, body, text }
}

/** The markers a response body contains. */
const markersIn = (text: string) => [...new Set(text.match(new RegExp(`${MARK}-[a-z-]+`, 'g')) ?? [])].sort()

/**
 * The body to search for draft content. A collection echoes the request's
 * own query (a search term) in its @id and view links: those are the
 * caller's words, not draft content, so they are left out; members are not.
 */
function scanned(response: TestResponse): string {
  const body = response.body as Record<string, unknown> | undefined
  if (!body || typeof body !== 'object' || !Array.isArray(body.member)) return response.text
  const { '@id': _id, view: _view, ...rest } = body
  return JSON.stringify(rest)
}

/** Fails with the request and the markers when a body leaks draft content. */
function expectNoDraft(caller: Caller, label: string, response: TestResponse) {
  expect({ caller, label, status: response.status, leaked: markersIn(scanned(response)) }).toEqual({
    caller,
    label,
    status: response.status,
    leaked: [],
  })
}

function expectDraft(label: string, response: TestResponse, marker: string) {
  expect({ label, status: response.status, sees: response.text.includes(marker) }).toEqual({
    label,
    status: 200,
    sees: true,
  })
}

beforeAll(async () => {
  server = await startTestServer({ options: { publishable: { permission: 'ROLE_SUPER_ADMIN' } } })
  const roles: Record<Caller, string | null> = {
    anonymous: null,
    user: 'ROLE_USER',
    adminWithoutPermission: 'ROLE_ADMIN',
    permitted: 'ROLE_SUPER_ADMIN',
  }
  for (const [caller, role] of Object.entries(roles) as Array<[Caller, string | null]>) {
    if (!role) continue
    username[caller] = `${caller.toLowerCase()}_${randomBytes(3).toString('hex')}`
    userId[caller] = await server.createUser(username[caller]!, [role])
    token[caller] = await server.login(username[caller]!)
    const login = await fetch(`${server.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: username[caller], password: PASSWORD }),
    })
    if (login.status !== 200) throw new Error(`Payload login ${caller}: ${login.status}`)
    restToken[caller] = ((await login.json()) as { token: string }).token
  }

  // The page tree: a live home page whose group holds positions, a template with a dynamic position.
  f.layout = (await create('/_api/_/layouts', { reference: 'layout' }))['@id']
  f.group = (await create('/_api/_/component_groups', { reference: 'home-main', location: 'main' }))['@id']
  f.home = (
    await create('/_api/_/pages', { reference: 'home', title: 'Home', layout: f.layout, componentGroups: [f.group] })
  )['@id']
  f.homeRoute = (await create('/_api/_/routes', { path: '/', page: f.home }))['@id']
  f.templateGroup = (await create('/_api/_/component_groups', { reference: 'template-main', location: 'main' }))['@id']
  f.template = (
    await create('/_api/_/pages', {
      reference: 'article-template',
      title: 'Article',
      layout: f.layout,
      isTemplate: true,
      componentGroups: [f.templateGroup],
    })
  )['@id']

  // HtmlContent never published (a draft), placed on the live home page.
  f.neverHtml = (await create('/_api/component/html_contents', { html: `<p>${secret('never-html')}</p>` }))['@id']
  drafts.set(f.neverHtml, secret('never-html'))
  f.neverPosition = (
    await create('/_api/_/component_positions', { componentGroup: f.group, component: f.neverHtml, sortValue: 1 })
  )['@id']

  // A published HtmlContent on the home page with a pending edit (a draft twin).
  f.twinHtml = (await create('/_api/component/html_contents', { html: `<p>${PUBLIC} html</p>`, publishedAt: past() }))[
    '@id'
  ]
  f.twinPosition = (
    await create('/_api/_/component_positions', { componentGroup: f.group, component: f.twinHtml, sortValue: 2 })
  )['@id']
  f.twinHtmlDraft = (
    await patch(f.twinHtml, { html: `<p>${secret('twin-html')}</p>`, uiComponent: secret('twin-ui') })
  )['@id']
  drafts.set(f.twinHtmlDraft, secret('twin-html'))

  // A scheduled draft (publishedAt tomorrow), and a published record whose edit is scheduled for tomorrow.
  f.scheduledHtml = (
    await create('/_api/component/html_contents', {
      html: `<p>${secret('scheduled-html')}</p>`,
      publishedAt: tomorrow(),
    })
  )['@id']
  drafts.set(f.scheduledHtml, secret('scheduled-html'))
  f.scheduledTwin = (
    await create('/_api/component/html_contents', { html: `<p>${PUBLIC} scheduled</p>`, publishedAt: past() })
  )['@id']
  f.scheduledTwinDraft = (
    await patch(f.scheduledTwin, { html: `<p>${secret('scheduled-twin')}</p>`, publishedAt: tomorrow() })
  )['@id']
  drafts.set(f.scheduledTwinDraft, secret('scheduled-twin'))

  // A blog article (BlogArticleData is not publishable) holding a draft HtmlContent, rendered through
  // the template's dynamic position; a second article holds a published one (the control).
  f.dynamicHtml = (await create('/_api/component/html_contents', { html: `<p>${secret('dynamic-html')}</p>` }))['@id']
  drafts.set(f.dynamicHtml, secret('dynamic-html'))
  f.article = (
    await create('/_api/page_data/blog_article_datas', {
      title: 'Secret article',
      page: f.template,
      htmlContent: f.dynamicHtml,
    })
  )['@id']
  f.articleRoute = (await create('/_api/_/routes', { path: '/blog/secret-article', pageData: f.article }))['@id']
  f.publicHtml = (
    await create('/_api/component/html_contents', { html: `<p>${PUBLIC} blog body</p>`, publishedAt: past() })
  )['@id']
  f.publicArticle = (
    await create('/_api/page_data/blog_article_datas', {
      title: 'Public article',
      page: f.template,
      htmlContent: f.publicHtml,
    })
  )['@id']
  await create('/_api/_/routes', { path: '/blog/public-article', pageData: f.publicArticle })
  f.dynamicPosition = (
    await create('/_api/_/component_positions', {
      componentGroup: f.templateGroup,
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
  )['@id']

  // NewsArticleData (publishable page data): one never published, one published with a draft edit.
  f.neverNews = (
    await create('/_api/page_data/news_article_datas', {
      title: `Never ${secret('never-news-title')}`,
      summary: secret('never-news'),
      page: f.template,
    })
  )['@id']
  drafts.set(f.neverNews, secret('never-news'))
  await create('/_api/_/routes', { path: '/news/never', pageData: f.neverNews })
  f.twinNews = (
    await create('/_api/page_data/news_article_datas', {
      title: `${PUBLIC} news`,
      summary: `${PUBLIC} summary`,
      page: f.template,
      publishedAt: past(),
    })
  )['@id']
  await create('/_api/_/routes', { path: '/news/twin', pageData: f.twinNews })
  f.twinNewsDraft = (
    await patch(f.twinNews, { title: `Edited ${secret('twin-news-title')}`, summary: secret('twin-news') })
  )['@id']
  drafts.set(f.twinNewsDraft, secret('twin-news'))

  // NavigationLink: a draft link in the home group.
  f.draftLink = (await create('/_api/component/navigation_links', { label: secret('link'), rawPath: '/somewhere' }))[
    '@id'
  ]
  drafts.set(f.draftLink, secret('link'))
  await create('/_api/_/component_positions', { componentGroup: f.group, component: f.draftLink, sortValue: 3 })
  f.publicLink = (
    await create('/_api/component/navigation_links', {
      label: `${PUBLIC} link`,
      rawPath: '/there',
      publishedAt: past(),
    })
  )['@id']

  // Sanity: the fixtures are what the matrix assumes.
  for (const iri of drafts.keys()) {
    const read = await as('permitted', iri)
    expect({ iri, status: read.status, published: read.body._metadata?.publishable?.published }).toEqual({
      iri,
      status: 200,
      published: false,
    })
  }
  expect(f.twinHtmlDraft).not.toBe(f.twinHtml)
  expect(f.twinNewsDraft).not.toBe(f.twinNews)
})
afterAll(async () => {
  await server?.close()
})

describe('the fixtures', () => {
  it('every draft marker is distinct and readable by the permitted caller through its draft IRI', async () => {
    expect(new Set(drafts.values()).size).toBe(drafts.size)
    for (const [iri, marker] of drafts) expectDraft(`GET ${iri}`, await as('permitted', iri), marker)
  })
})

describe('attack: requesting a draft by its IRI (learned from a link, a log or a guess)', () => {
  const variants = [
    '',
    '?published=false',
    '?published=0',
    '?published=true',
    '?published=1',
    '?published=',
    '?published=maybe',
  ]

  it.each(FORBIDDEN)(
    '%s: 404 for every draft IRI, whatever ?published= says, with no draft content',
    async (caller) => {
      for (const iri of drafts.keys()) {
        for (const variant of variants) {
          const response = await as(caller, `${iri}${variant}`)
          expectNoDraft(caller, `GET ${iri}${variant}`, response)
          expect({ iri: `${iri}${variant}`, status: response.status }).toEqual({ iri: `${iri}${variant}`, status: 404 })
        }
      }
    },
  )

  it.each(FORBIDDEN)(
    '%s: a search parameter on a draft IRI is no oracle either (404 whether it matches or not)',
    async (caller) => {
      for (const search of [secret('never-news'), 'Never', 'no-such-text']) {
        const response = await as(caller, `${f.neverNews}?search=${encodeURIComponent(search)}`)
        expect(response.status).toBe(404)
        expectNoDraft(caller, `GET neverNews?search=${search}`, response)
      }
    },
  )

  it('permitted: the draft by its IRI (also with ?published=false); ?published=true gives the published twin, or 404 when never published', async () => {
    for (const [iri, marker] of drafts) {
      expectDraft(`GET ${iri}`, await as('permitted', iri), marker)
      expectDraft(`GET ${iri}?published=false`, await as('permitted', `${iri}?published=false`), marker)
    }
    const twinOfDraft = await as('permitted', `${f.twinHtmlDraft}?published=true`)
    expect(twinOfDraft.status).toBe(200)
    expect(twinOfDraft.body['@id']).toBe(f.twinHtml)
    expect(twinOfDraft.body.html).toBe(`<p>${PUBLIC} html</p>`)
    for (const iri of [f.neverHtml, f.scheduledHtml, f.dynamicHtml, f.neverNews, f.draftLink]) {
      expect({ iri, status: (await as('permitted', `${iri}?published=true`)).status }).toEqual({ iri, status: 404 })
    }
  })
})

describe('attack: reading the live IRI of a record whose edit is pending, hoping to be routed to the draft', () => {
  const live = () => [
    {
      iri: f.twinHtml,
      draft: f.twinHtmlDraft,
      marker: secret('twin-html'),
      field: 'html',
      value: `<p>${PUBLIC} html</p>`,
    },
    {
      iri: f.scheduledTwin,
      draft: f.scheduledTwinDraft,
      marker: secret('scheduled-twin'),
      field: 'html',
      value: `<p>${PUBLIC} scheduled</p>`,
    },
    {
      iri: f.twinNews,
      draft: f.twinNewsDraft,
      marker: secret('twin-news'),
      field: 'summary',
      value: `${PUBLIC} summary`,
    },
  ]

  it.each(FORBIDDEN)(
    '%s: the published version, with no draft content, no draft IRI and no violations, under every ?published=',
    async (caller) => {
      for (const { iri, draft, field, value } of live()) {
        for (const variant of ['', '?published=false', '?published=true', '?published=0']) {
          const response = await as(caller, `${iri}${variant}`)
          expectNoDraft(caller, `GET ${iri}${variant}`, response)
          expect(response.status).toBe(200)
          expect(response.body['@id']).toBe(iri)
          expect(response.body[field]).toBe(value)
          expect(response.body.draftResource).toBeNull()
          expect(response.text).not.toContain(idOf(draft))
          expect(response.body._metadata.publishable.published).toBe(true)
          expect(response.body._metadata).not.toHaveProperty('violations')
        }
      }
    },
  )

  it('permitted: the draft (draft routing), the published version with ?published=true, and the violations', async () => {
    for (const { iri, draft, marker, field, value } of live()) {
      const routed = await as('permitted', iri)
      expectDraft(`GET ${iri}`, routed, marker)
      expect(routed.body['@id']).toBe(draft)
      expect(routed.body.publishedResource).toBe(iri)
      expect(routed.body._metadata.publishable.published).toBe(false)
      expect(Array.isArray(routed.body._metadata.violations)).toBe(true)
      const explicit = await as('permitted', `${iri}?published=true`)
      expect(explicit.body['@id']).toBe(iri)
      expect(explicit.body[field]).toBe(value)
      expect(explicit.body.draftResource).toBe(draft)
    }
  })
})

describe('attack: enumerating collections with every filter, order, page size and ?published= combination', () => {
  const publishedVariants = ['', 'published=false', 'published=true', 'published=0', 'published=1', 'published=']
  const paging = ['', 'itemsPerPage=1', 'itemsPerPage=2&page=2', 'itemsPerPage=100', 'page=1', 'page=2', 'page=999']
  const newsFilters = [
    '',
    `search=${MARK}`,
    `search=${secret('never-news')}`,
    `search=${secret('twin-news')}`,
    `search=${secret('twin-news-title')}`,
    'search=news',
    'search=Never',
    'order[title]=asc',
    'order[title]=desc',
    'order[createdAt]=asc',
    'order[createdAt]=desc',
    'search=e&order[title]=desc',
    'summary=x',
    `title=${secret('never-news-title')}`,
    'order[summary]=asc',
    'order[title]=sideways',
  ]
  const join = (...parts: string[]) => parts.filter(Boolean).join('&')

  /** Every member of a collection, page by page (itemsPerPage=1), to reach each member through paging too. */
  async function walk(caller: Caller, base: string, extra: string): Promise<TestResponse[]> {
    const out: TestResponse[] = []
    for (let page = 1; page <= 30; page++) {
      const response = await as(caller, `${base}?${join(extra, 'itemsPerPage=1', `page=${page}`)}`)
      out.push(response)
      if (response.status !== 200 || !response.body.view?.next) break
    }
    return out
  }

  it.each(FORBIDDEN)('%s: component collections never list a draft', async (caller) => {
    for (const base of ['/_api/component/html_contents', '/_api/component/navigation_links']) {
      for (const published of publishedVariants) {
        for (const page of paging) {
          const path = `${base}?${join(published, page)}`
          const response = await as(caller, path)
          expectNoDraft(caller, path, response)
          expect({ path, status: response.status }).toEqual({ path, status: 200 })
          for (const member of response.body.member)
            expect({ path, published: member._metadata.publishable.published }).toEqual({ path, published: true })
        }
        for (const response of await walk(caller, base, published))
          expectNoDraft(caller, `${base} walk ${published}`, response)
      }
    }
    const html = await as(caller, '/_api/component/html_contents?itemsPerPage=100')
    expect(html.body.member.map((m: { '@id': string }) => m['@id']).sort()).toEqual(
      [f.twinHtml, f.scheduledTwin, f.publicHtml].sort(),
    )
    expect(html.body.totalItems).toBe(3)
  })

  it.each(FORBIDDEN)(
    '%s: the page data collection of NewsArticleData (publishable) never lists, counts or matches a draft',
    async (caller) => {
      const base = '/_api/page_data/news_article_datas'
      for (const filter of newsFilters) {
        for (const published of publishedVariants) {
          for (const page of ['', 'itemsPerPage=1', 'page=2&itemsPerPage=1']) {
            const path = `${base}?${join(filter, published, page)}`
            const response = await as(caller, path)
            expectNoDraft(caller, path, response)
            if (response.status === 200) {
              // totalItems is an oracle too: a search matching only a draft must count nothing.
              const visible = response.body.member.map((m: { '@id': string }) => m['@id'])
              for (const iri of visible) expect(iri).toBe(f.twinNews)
              expect(response.body.totalItems).toBeLessThanOrEqual(1)
            }
          }
        }
        for (const response of await walk(caller, base, filter))
          expectNoDraft(caller, `${base} walk ${filter}`, response)
      }
      for (const search of [MARK, secret('never-news'), secret('twin-news'), secret('twin-news-title')]) {
        const response = await as(caller, `${base}?search=${search}`)
        expect({ search, totalItems: response.body.totalItems }).toEqual({ search, totalItems: 0 })
      }
      const control = await as(caller, `${base}?search=${PUBLIC}`)
      expect(control.body.totalItems).toBe(1)
      expect(control.body.member[0]['@id']).toBe(f.twinNews)
      expect(control.body.member[0].summary).toBe(`${PUBLIC} summary`)
    },
  )

  it.each(FORBIDDEN)(
    '%s: collections of the page tree (positions, groups, pages, routes, blog articles) hold no draft content',
    async (caller) => {
      for (const path of [
        '/_api/_/component_positions?itemsPerPage=100',
        '/_api/_/component_groups?itemsPerPage=100',
        '/_api/_/pages?itemsPerPage=100',
        '/_api/_/layouts',
        '/_api/_/routes?itemsPerPage=100',
        '/_api/page_data/blog_article_datas?itemsPerPage=100',
        '/_api/component/titles',
      ]) {
        for (const headers of [{}, { path: '/blog/secret-article' }, { path: f.article as string }] as Array<
          Record<string, string>
        >) {
          const response = await as(caller, path, headers)
          expectNoDraft(caller, path, response)
        }
      }
    },
  )

  it('permitted: drafts are listed in place of their published twins, ?published=false lists only drafts, ?published=true none, and search finds them', async () => {
    const auto = await as('permitted', '/_api/component/html_contents?itemsPerPage=100')
    const autoIds = auto.body.member.map((m: { '@id': string }) => m['@id'])
    for (const iri of [f.neverHtml, f.twinHtmlDraft, f.scheduledHtml, f.scheduledTwinDraft, f.dynamicHtml])
      expect(autoIds).toContain(iri)
    expect(autoIds).not.toContain(f.twinHtml)
    const onlyDrafts = await as('permitted', '/_api/component/html_contents?published=false&itemsPerPage=100')
    expect(onlyDrafts.body.member.map((m: { '@id': string }) => m['@id']).sort()).toEqual(
      [f.neverHtml, f.twinHtmlDraft, f.scheduledHtml, f.scheduledTwinDraft, f.dynamicHtml].sort(),
    )
    for (const marker of ['never-html', 'twin-html', 'scheduled-html', 'scheduled-twin', 'dynamic-html'])
      expect(onlyDrafts.text).toContain(secret(marker))
    const onlyPublished = await as('permitted', '/_api/component/html_contents?published=true&itemsPerPage=100')
    expect(markersIn(onlyPublished.text)).toEqual([])
    expect(onlyPublished.body.totalItems).toBe(3)

    const news = await as('permitted', `/_api/page_data/news_article_datas?search=${MARK}`)
    expect(news.body.member.map((m: { '@id': string }) => m['@id']).sort()).toEqual(
      [f.neverNews, f.twinNewsDraft].sort(),
    )
    expect(news.text).toContain(secret('never-news'))
    expect(news.text).toContain(secret('twin-news'))
    const links = await as('permitted', '/_api/component/navigation_links?published=false')
    expect(links.text).toContain(secret('link'))
  })
})

describe('attack: following the page tree to a component that was never published', () => {
  it.each(FORBIDDEN)(
    '%s: the position names the component, but the component itself is a 404 with no content',
    async (caller) => {
      const page = await as(caller, f.home)
      expect(page.status).toBe(200)
      const group = await as(caller, f.group)
      expect(group.status).toBe(200)
      expect(group.body.componentPositions).toContain(f.neverPosition)
      const position = await as(caller, f.neverPosition)
      expect(position.status).toBe(200)
      for (const response of [page, group, position]) expectNoDraft(caller, 'page tree', response)
      const component = await as(caller, position.body.component)
      expect(component.status).toBe(404)
      expectNoDraft(caller, `GET ${position.body.component}`, component)
    },
  )

  it.each(FORBIDDEN)(
    '%s: a position holding a published component with a pending draft leads to the published version',
    async (caller) => {
      const position = await as(caller, f.twinPosition)
      expect(position.body.component).toBe(f.twinHtml)
      const component = await as(caller, position.body.component)
      expectNoDraft(caller, 'twin position component', component)
      expect(component.body.html).toBe(`<p>${PUBLIC} html</p>`)
    },
  )

  it('permitted: the same positions lead to the drafts', async () => {
    const never = await as('permitted', f.neverPosition)
    expectDraft('never-published component', await as('permitted', never.body.component), secret('never-html'))
    const twin = await as('permitted', f.twinPosition)
    expectDraft('component with a draft', await as('permitted', twin.body.component), secret('twin-html'))
  })
})

describe('attack: a dynamic position (page data property, `path` header) resolving to a draft component', () => {
  const headers = () => [
    { path: '/blog/secret-article' },
    { path: f.article },
    { path: `/page_data/blog_article_datas/${idOf(f.article)}` },
  ]

  it.each(FORBIDDEN)(
    '%s: the resolved component is never served, the page data and position carry no draft content',
    async (caller) => {
      for (const header of headers()) {
        const position = await as(caller, f.dynamicPosition, header)
        expect(position.status).toBe(200)
        expectNoDraft(caller, `dynamic position, path ${header.path}`, position)
        if (position.body.component) {
          const component = await as(caller, position.body.component, header)
          expect(component.status).toBe(404)
          expectNoDraft(caller, 'dynamic component', component)
        }
        const positions = await as(caller, '/_api/_/component_positions?itemsPerPage=100', header)
        expectNoDraft(caller, 'positions collection with path header', positions)
      }
      const article = await as(caller, f.article)
      expect(article.status).toBe(200)
      expectNoDraft(caller, 'blog article', article)
      const component = await as(caller, article.body.htmlContent)
      expect(component.status).toBe(404)
      expectNoDraft(caller, 'blog article htmlContent', component)
    },
  )

  it.each(FORBIDDEN)('%s: the control article with a published component resolves and is readable', async (caller) => {
    const position = await as(caller, f.dynamicPosition, { path: '/blog/public-article' })
    expect(position.body.component).toBe(f.publicHtml)
    expect((await as(caller, f.publicHtml)).body.html).toBe(`<p>${PUBLIC} blog body</p>`)
  })

  it('permitted: the dynamic position resolves to the draft, which is readable', async () => {
    for (const header of headers()) {
      const position = await as('permitted', f.dynamicPosition, header)
      expect(position.body.component).toBe(f.dynamicHtml)
      expectDraft('dynamic component', await as('permitted', position.body.component, header), secret('dynamic-html'))
    }
  })
})

describe('attack: crawling the whole JSON-LD API, following every IRI found, with and without a `path` header', () => {
  /** Breadth-first crawl from the entrypoint; returns every response. */
  async function crawl(caller: Caller, headers: Record<string, string>): Promise<Map<string, TestResponse>> {
    const seen = new Map<string, TestResponse>()
    const queue = ['/_api/', '/_api/_/routes?itemsPerPage=100']
    const skip = /^\/_api\/(contexts|docs|users|me|errors)/
    while (queue.length > 0 && seen.size < 600) {
      const path = queue.shift()!
      if (seen.has(path)) continue
      const response = await as(caller, path, headers)
      seen.set(path, response)
      const found = response.text.match(/"\/_api\/[^"\s]*"/g) ?? []
      for (const quoted of found) {
        let next = JSON.parse(quoted) as string
        if (skip.test(next)) continue
        // Collections are read whole (and their own paging links followed).
        if (!next.includes('?') && !/[0-9a-f-]{36}$/.test(next)) next = `${next}?itemsPerPage=100`
        if (!seen.has(next)) queue.push(next)
      }
    }
    return seen
  }

  const twinDraftIds = () => [idOf(f.twinHtmlDraft), idOf(f.scheduledTwinDraft), idOf(f.twinNewsDraft)]

  it.each(FORBIDDEN)(
    '%s: no response of the crawl holds draft content or the IRI of a pending edit',
    async (caller) => {
      for (const headers of [
        {},
        { path: '/blog/secret-article' },
        { path: '/news/never' },
        { path: '/news/twin' },
      ] as Array<Record<string, string>>) {
        const responses = await crawl(caller, headers)
        expect(responses.size).toBeGreaterThan(20)
        // The crawl did reach the places that point at drafts.
        expect(responses.has(f.neverPosition)).toBe(true)
        expect(responses.has(f.dynamicPosition)).toBe(true)
        expect(responses.has(f.neverHtml)).toBe(true)
        for (const [path, response] of responses) {
          expectNoDraft(caller, `crawl ${path} (path: ${headers.path ?? '-'})`, response)
          for (const id of twinDraftIds())
            expect({ path, leaksDraftIri: response.text.includes(id) }).toEqual({ path, leaksDraftIri: false })
          expect(response.status).toBeLessThan(500)
        }
      }
    },
  )

  it('permitted: the same crawl reaches every draft', async () => {
    const responses = await crawl('permitted', { path: '/blog/secret-article' })
    const all = [...responses.values()].map((r) => r.text).join('\n')
    expect(markersIn(all)).toEqual(
      [...drafts.values(), secret('never-news-title'), secret('twin-news-title'), secret('twin-ui')].sort(),
    )
  })
})

describe("attack: going around the JSON-LD API through Payload's own REST API (/api)", () => {
  const restPaths = () => [
    '/api/html_contents',
    '/api/html_contents?limit=100&depth=2',
    `/api/html_contents/${idOf(f.neverHtml)}`,
    `/api/html_contents/${idOf(f.twinHtmlDraft)}`,
    `/api/html_contents/${idOf(f.twinHtmlDraft)}?draft=true`,
    `/api/html_contents/${idOf(f.twinHtml)}?depth=2`,
    `/api/html_contents/${idOf(f.twinHtml)}?depth=1&joins[draftResource][limit]=10`,
    '/api/html_contents?where[publishedAt][exists]=false',
    '/api/html_contents?where[publishedResource][exists]=true&depth=1',
    '/api/html_contents?where[publishedAt][greater_than]=2000-01-01&limit=100',
    '/api/html_contents?draft=true&limit=100',
    `/api/html_contents?where[html][like]=${MARK}`,
    `/api/html_contents/count?where[html][like]=${MARK}`,
    '/api/html_contents?where[or][0][publishedAt][exists]=false&where[or][1][id][exists]=true&limit=100',
    '/api/html_contents?select[html]=true&select[draftResource]=true&depth=1&limit=100',
    '/api/html_contents?sort=-publishedAt&limit=100',
    `/api/navigation_links?limit=100&depth=1`,
    `/api/navigation_links/${idOf(f.draftLink)}`,
    '/api/news_article_datas?limit=100&depth=1',
    `/api/news_article_datas/${idOf(f.neverNews)}`,
    `/api/news_article_datas/${idOf(f.twinNewsDraft)}`,
    `/api/news_article_datas?where[summary][like]=${MARK}`,
    `/api/news_article_datas?where[title][like]=${MARK}`,
    `/api/news_article_datas/${idOf(f.twinNews)}?depth=1`,
    // Drafts reached through relationships other collections hold (populated at depth > 0).
    '/api/component_positions?limit=100&depth=2',
    `/api/component_positions/${idOf(f.neverPosition)}?depth=3`,
    '/api/component_groups?limit=100&depth=3',
    '/api/pages?limit=100&depth=4',
    '/api/blog_article_datas?limit=100&depth=2',
    `/api/blog_article_datas/${idOf(f.article)}?depth=2`,
    '/api/routes?limit=100&depth=3',
    // A query across a relationship as a content oracle: which article holds html containing X?
    `/api/blog_article_datas?where[htmlContent.html][like]=${MARK}`,
    `/api/blog_article_datas?where[htmlContent.publishedAt][exists]=false`,
    `/api/component_positions?where[component.value][equals]=${idOf(f.neverHtml)}&depth=1`,
  ]

  it.each(FORBIDDEN)('%s: no Payload REST response holds draft content; a draft by id is not found', async (caller) => {
    for (const path of restPaths()) {
      const response = await rest(caller, path)
      expectNoDraft(caller, path, response)
      expect({ path, status: response.status < 500 }).toEqual({ path, status: true })
    }
    for (const id of [f.neverHtml, f.twinHtmlDraft, f.scheduledHtml, f.dynamicHtml].map(idOf)) {
      expect((await rest(caller, `/api/html_contents/${id}`)).status).toBe(404)
    }
    expect((await rest(caller, `/api/news_article_datas/${idOf(f.neverNews)}`)).status).toBe(404)
    // Counting is an oracle: nothing unpublished is counted.
    expect((await rest(caller, '/api/html_contents?where[publishedAt][exists]=false')).body.totalDocs).toBe(0)
    expect((await rest(caller, `/api/html_contents/count?where[html][like]=${MARK}`)).body.totalDocs).toBe(0)
    expect((await rest(caller, `/api/blog_article_datas?where[htmlContent.html][like]=${MARK}`)).body.totalDocs).toBe(0)
    expect((await rest(caller, `/api/news_article_datas?where[summary][like]=${MARK}`)).body.totalDocs).toBe(0)
  })

  it('the relationship query of the oracle does work: it finds an article by its published html (control)', async () => {
    for (const caller of [...FORBIDDEN, 'permitted'] as Caller[]) {
      const found = await rest(caller, `/api/blog_article_datas?where[htmlContent.html][like]=${PUBLIC}`)
      expect({ caller, ids: found.body.docs.map((d: { id: string }) => d.id) }).toEqual({
        caller,
        ids: [idOf(f.publicArticle)],
      })
    }
  })

  // Every caller holding a JSON-LD token (anonymous holds none); the permitted caller's is the telling one,
  // as its Payload REST token does see drafts (below).
  it.each(['user', 'adminWithoutPermission', 'permitted'] as Caller[])(
    '%s: the JSON-LD Bearer token is no Payload REST credential: /api answers as to an anonymous caller, with no draft',
    async (caller) => {
      const path = '/api/html_contents?where[publishedAt][exists]=false&limit=100'
      const anonymous = await rest('anonymous', path)
      expect(anonymous.status).toBe(200)
      const bearer = { authorization: `Bearer ${token[caller]}` }
      const response = await fetch(`${server.url}${path}`, { headers: bearer })
      const text = await response.text()
      expect(response.status).toBe(200)
      expect(markersIn(text)).toEqual([])
      expect(JSON.parse(text)).toEqual(anonymous.body)
      expect(JSON.parse(text).totalDocs).toBe(0)
      const me = await fetch(`${server.url}/api/users/me`, { headers: bearer })
      expect(me.status).toBe(200)
      expect(((await me.json()) as { user: unknown }).user).toBeNull()
    },
  )

  it('permitted: Payload REST serves drafts to the permitted caller', async () => {
    const never = await rest('permitted', `/api/html_contents/${idOf(f.neverHtml)}`)
    expect(never.status).toBe(200)
    expect(never.text).toContain(secret('never-html'))
    const unpublished = await rest('permitted', '/api/html_contents?where[publishedAt][exists]=false&limit=100')
    for (const marker of ['never-html', 'twin-html', 'dynamic-html']) expect(unpublished.text).toContain(secret(marker))
    const news = await rest('permitted', `/api/news_article_datas/${idOf(f.twinNewsDraft)}`)
    expect(news.text).toContain(secret('twin-news'))
  })
})

describe('attack: going around the JSON-LD API through GraphQL', () => {
  /** Queries for every draft: lists, filters and counts matching draft content, drafts by id, drafts behind a relationship. */
  const query = () => `{
    htmlAll: Html_contents(limit: 100) { totalDocs docs { id html uiComponent } }
    htmlUnpublished: Html_contents(where: { publishedAt: { exists: false } }, limit: 100) { totalDocs docs { id html } }
    htmlMarked: countHtml_contents(where: { html: { like: "${MARK}" } }) { totalDocs }
    neverHtml: Html_content(id: "${idOf(f.neverHtml)}") { id html }
    twinHtmlDraft: Html_content(id: "${idOf(f.twinHtmlDraft)}") { id html }
    news: News_article_datas(limit: 100) { totalDocs docs { id title summary } }
    newsMarked: countNews_article_datas(where: { summary: { like: "${MARK}" } }) { totalDocs }
    neverNews: News_article_data(id: "${idOf(f.neverNews)}") { id title summary }
    links: Navigation_links(limit: 100) { totalDocs docs { id label } }
    articles: Blog_article_datas(limit: 100) { docs { id title htmlContent { id html } } }
  }`

  let schema: GraphQLSchema | undefined
  /** Runs a query on this site's Payload GraphQL schema (what Payload's GraphQL route serves) as `caller`. */
  async function graphqlAs(caller: Caller, source: string): Promise<ExecutionResult<Record<string, any>>> {
    schema ??= configToSchema(server.payload.config).schema
    const id = userId[caller]
    const user = id
      ? { ...(await server.payload.findByID({ collection: 'users', id, depth: 0 })), collection: 'users' }
      : undefined
    const req = await createLocalReq({ user: user as never }, server.payload)
    return (await graphql({ schema, source, contextValue: { req, headers: {} } })) as ExecutionResult<
      Record<string, any>
    >
  }

  it.each(FORBIDDEN)(
    "%s: the site mounts no GraphQL endpoint: /api/graphql and its playground are Payload's 404, with no draft",
    async (caller) => {
      const requests: Array<[string, RequestInit]> = [
        [
          '/api/graphql',
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: query() }) },
        ],
        [`/api/graphql?query=${encodeURIComponent(query())}`, {}],
        ['/api/graphql-playground', {}],
      ]
      for (const [path, init] of requests) {
        const response = await rest(caller, path, init)
        const route = path.split('?')[0]
        expectNoDraft(caller, `${init.method ?? 'GET'} ${route}`, response)
        expect({ route, status: response.status, body: response.body }).toEqual({
          route,
          status: 404,
          body: { message: `Route not found "${route}"` },
        })
      }
    },
  )

  it.each(FORBIDDEN)(
    "%s: Payload's GraphQL schema, were a site to mount it, lists, counts, matches and finds no draft",
    async (caller) => {
      const result = await graphqlAs(caller, query())
      expect(markersIn(JSON.stringify(result))).toEqual([])
      const data = result.data!
      expect(data.htmlAll.docs.map((d: { id: string }) => d.id).sort()).toEqual(
        [f.twinHtml, f.scheduledTwin, f.publicHtml].map(idOf).sort(),
      )
      expect(data.htmlUnpublished.totalDocs).toBe(0)
      expect(data.htmlMarked.totalDocs).toBe(0)
      expect(data.news.docs.map((d: { id: string }) => d.id)).toEqual([idOf(f.twinNews)])
      expect(data.news.docs[0].summary).toBe(`${PUBLIC} summary`)
      expect(data.newsMarked.totalDocs).toBe(0)
      expect(data.links.docs.map((d: { id: string }) => d.id)).toEqual([idOf(f.publicLink)])
      expect(data.articles.docs.find((d: { id: string }) => d.id === idOf(f.article)).htmlContent).toBeNull()
      // A draft by id is not found, exactly like an id that does not exist.
      expect([data.neverHtml, data.twinHtmlDraft, data.neverNews]).toEqual([null, null, null])
      expect((result.errors ?? []).map((e) => `${e.path?.join('.')}: ${e.message}`).sort()).toEqual([
        'neverHtml: Not Found',
        'neverNews: Not Found',
        'twinHtmlDraft: Not Found',
      ])
    },
  )

  it('permitted: the same GraphQL query does return the drafts (control: the query reaches them)', async () => {
    const result = await graphqlAs('permitted', query())
    expect(result.errors).toBeUndefined()
    const data = result.data!
    expect(data.htmlMarked.totalDocs).toBeGreaterThan(0)
    expect(data.neverHtml.html).toContain(secret('never-html'))
    expect(data.twinHtmlDraft.html).toContain(secret('twin-html'))
    expect(data.neverNews.summary).toBe(secret('never-news'))
    expect(JSON.stringify(data.htmlUnpublished)).toContain(secret('dynamic-html'))
  })
})

describe('attack: using write endpoints as a read oracle (caller without the publish permission)', () => {
  it('an admin without the permission cannot read, change or delete a draft through PATCH or DELETE (404, nothing changed)', async () => {
    for (const iri of [f.neverHtml, f.twinHtmlDraft, f.neverNews]) {
      const patched = await server.patch(iri, { uiComponent: 'Probe' }, { token: token.adminWithoutPermission })
      expect({ iri, status: patched.status }).toEqual({ iri, status: 404 })
      expectNoDraft('adminWithoutPermission', `PATCH ${iri}`, patched)
      const deleted = await server.delete(iri, { token: token.adminWithoutPermission })
      expect({ iri, status: deleted.status }).toEqual({ iri, status: 404 })
      expectNoDraft('adminWithoutPermission', `DELETE ${iri}`, deleted)
      const after = await as('permitted', iri)
      expect(after.status).toBe(200)
      expect(after.body.uiComponent).not.toBe('Probe')
    }
  })

  it('an admin without the permission PATCHing a published record with a pending draft gets the published record back', async () => {
    const response = await server.patch(
      f.twinNews,
      { metaDescription: 'changed by an admin' },
      { token: token.adminWithoutPermission },
    )
    expect(response.status).toBe(200)
    expectNoDraft('adminWithoutPermission', `PATCH ${f.twinNews}`, response)
    expect(response.body['@id']).toBe(f.twinNews)
    expect(response.body.summary).toBe(`${PUBLIC} summary`)
    expect(response.body.draftResource).toBeNull()
    // The pending draft is untouched.
    expectDraft('draft after the admin PATCH', await as('permitted', f.twinNewsDraft), secret('twin-news'))
  })

  it('a POST naming a draft as its publishedResource does not link to (or reveal) the draft', async () => {
    const response = await server.post(
      '/_api/component/html_contents',
      { html: '<p>probe</p>', publishedResource: f.twinHtmlDraft, draftResource: f.neverHtml },
      { token: token.adminWithoutPermission },
    )
    expect(response.status).toBe(201)
    expectNoDraft('adminWithoutPermission', 'POST with twin links', response)
    expect(response.body.publishedResource).toBeNull()
    expect(response.body.draftResource).toBeNull()
    expect(response.body._metadata.publishable.published).toBe(true)
  })

  it.each(FORBIDDEN)('%s: the bulk publish endpoint refuses (401/403) without echoing drafts', async (caller) => {
    const response = await server.post(
      '/_api/_/publish',
      { iris: [f.neverHtml, f.twinHtmlDraft] },
      { token: token[caller] },
    )
    expect(response.status).toBe(caller === 'anonymous' ? 401 : 403)
    expectNoDraft(caller, 'POST /_/publish', response)
    expect((await as('permitted', f.neverHtml)).body._metadata.publishable.published).toBe(false)
  })
})
