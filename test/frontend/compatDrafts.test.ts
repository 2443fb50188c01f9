import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { seedDemo } from '../../src/seed/demo'
import { startTestServer, type TestServer } from '../support/server'

/**
 * A signed-in admin outside edit mode, on a page whose text block has a
 * draft (issue 27). The CWA Nuxt module keeps each answer under the `@id`
 * the API returns, follows a position's `component`, then a component's
 * `publishedResource` with `?published=true`, each IRI once per page load;
 * outside edit mode it renders the published IRI the position's component
 * maps to. Replayed here request by request, with the profile on, off and
 * prefix-less, on the demo site.
 */

const P = '/_api'
const LIVE = '<p>This site is served by payload-cwa.</p>'
const DRAFT = '<p>An edit not yet published.</p>'
let on: TestServer
let off: TestServer
let bare: TestServer
const admins = new Map<TestServer, string>()

beforeAll(async () => {
  on = await startTestServer({ options: { compat: 'cwa-nuxt' } })
  off = await startTestServer()
  bare = await startTestServer({ options: { compat: 'cwa-nuxt', compatIrisWithoutPrefix: true } })
  for (const server of [on, off, bare]) {
    await seedDemo(server.payload, { apiPrefix: P })
    admins.set(server, await server.tokenFor('ROLE_ADMIN'))
  }
})
afterAll(async () => {
  await on?.close()
  await off?.close()
  await bare?.close()
})

type Resource = Record<string, any>
/** The module requests IRIs as served; a prefix-less one goes to the API URL (`…/_api`). */
const url = (iri: string) => (iri.startsWith(`${P}/`) ? iri : `${P}${iri}`)
const linkOf = (value: unknown): string[] => (Array.isArray(value) ? value : typeof value === 'string' ? [value] : [])

/**
 * The module's page load (route → page data / page → layout and groups →
 * positions → component → its groups and `publishedResource?published=true`):
 * each IRI requested once (the query left out of the key), each answer kept
 * under its `@id`, the draft ↔ published pairs mapped from `publishedResource`
 * and `draftResource`.
 */
async function loadPage(server: TestServer, path: string, token?: string) {
  const byId = new Map<string, Resource>()
  const requested = new Set<string>()
  const draftToPublished = new Map<string, string>()
  const publishedToDraft = new Map<string, string>()
  const cookie: Record<string, string> = token ? { cookie: `api_component=${token}` } : {}
  const fetchResource = async (iri: string): Promise<Resource | null> => {
    const key = iri.split('?')[0]!
    if (requested.has(key)) return null
    requested.add(key)
    const response = await server.get(url(iri), { headers: { path, ...cookie } })
    if (response.status !== 200) return null
    const resource = response.body as Resource
    byId.set(resource['@id'], resource)
    const published = resource._metadata?.publishable?.published
    if (published === false && resource.publishedResource) {
      draftToPublished.set(resource['@id'], resource.publishedResource)
      publishedToDraft.set(resource.publishedResource, resource['@id'])
    }
    if (published === true && resource.draftResource) {
      publishedToDraft.set(resource['@id'], resource.draftResource)
      draftToPublished.set(resource.draftResource, resource['@id'])
    }
    return resource
  }
  const walk = async (iri: string): Promise<void> => {
    const resource = await fetchResource(iri)
    if (!resource) return
    const next = [
      ...linkOf(resource.pageData),
      ...linkOf(resource.page),
      ...linkOf(resource.layout),
      ...linkOf(resource.componentGroups),
      ...linkOf(resource.componentPositions),
      ...linkOf(resource.component),
      ...linkOf(resource.publishedResource).map((published) => `${published}?published=true`),
    ]
    for (const link of next) await walk(link)
  }
  await walk(`${P}/_/routes/${path}`)
  const positions = [...byId.values()].filter((r) => r['@type'] === 'ComponentPosition')
  /** What ComponentPosition.vue renders outside edit mode (findPublishedComponentIri) and in it (findDraftComponentIri). */
  const rendered = (editing: boolean) =>
    positions.map((position) => {
      const iri = position.component as string
      const held = byId.get(iri)
      const isPublished = held ? held._metadata?.publishable?.published !== false : false
      const shown = editing
        ? isPublished
          ? (publishedToDraft.get(iri) ?? iri)
          : iri
        : isPublished
          ? iri
          : draftToPublished.get(iri)
      return shown ? byId.get(shown) : undefined
    })
  return { byId, positions, rendered }
}

/** The home page's text block as the public sees it, and an admin's draft of it. */
async function draftTheTextBlock(server: TestServer): Promise<{ published: string; draft: string }> {
  const anonymous = await loadPage(server, '/')
  const block = [...anonymous.byId.values()].find((r) => r.html === LIVE)!
  const edited = await server.patch(url(block['@id']), { html: DRAFT }, { token: admins.get(server) })
  expect(edited.status).toBe(200)
  expect(edited.body['@id']).not.toBe(block['@id'])
  return { published: block['@id'], draft: edited.body['@id'] }
}

const htmlOf = (list: Array<Resource | undefined>) => list.map((r) => r?.html).filter(Boolean)

describe.each([
  ['on', () => on],
  ['prefix-less', () => bare],
])('profile %s: the module as a signed-in admin on a page whose block has a draft', (_name, server) => {
  let iris: { published: string; draft: string }
  beforeAll(async () => {
    iris = await draftTheTextBlock(server())
  })

  it('the position names the draft; the draft names its published twin, whose ?published=true read names the draft back', async () => {
    const page = await loadPage(server(), '/', admins.get(server()))
    const position = page.positions.find((p) => p.component === iris.draft)
    expect(position).toBeDefined()
    expect(page.positions.some((p) => p.component === iris.published)).toBe(false)
    const draft = page.byId.get(iris.draft)!
    expect(draft).toMatchObject({ html: DRAFT, publishedResource: iris.published })
    expect(draft._metadata.publishable.published).toBe(false)
    const live = page.byId.get(iris.published)!
    expect(live).toMatchObject({ html: LIVE, draftResource: iris.draft })
    expect(live._metadata.publishable.published).toBe(true)
  })

  it('renders the live text outside edit mode and the draft in it; anonymous callers see the live text at the published IRI', async () => {
    const page = await loadPage(server(), '/', admins.get(server()))
    expect(htmlOf(page.rendered(false))).toContain(LIVE)
    expect(htmlOf(page.rendered(false))).not.toContain(DRAFT)
    expect(htmlOf(page.rendered(true))).toContain(DRAFT)
    const anonymous = await loadPage(server(), '/')
    expect(anonymous.positions.some((p) => p.component === iris.published)).toBe(true)
    expect(anonymous.byId.has(iris.draft)).toBe(false)
    expect(htmlOf(anonymous.rendered(false))).toContain(LIVE)
    expect(htmlOf(anonymous.rendered(false))).not.toContain(DRAFT)
  })

  it("the resource manifest lists the draft's IRI to the admin, the published one to anonymous callers", async () => {
    const manifest = async (token?: string) =>
      (await server().get(`${P}/_/routes_manifest//`, { token })).body.resource_iris as string[]
    const forAdmin = await manifest(admins.get(server()))
    expect(forAdmin).toContain(iris.draft)
    expect(forAdmin).not.toContain(iris.published)
    const forAnyone = await manifest()
    expect(forAnyone).toContain(iris.published)
    expect(forAnyone).not.toContain(iris.draft)
  })
})

describe('profile on: every way a position is served', () => {
  it('a position bound to a page data property names the draft of the component it resolves to', async () => {
    const admin = admins.get(on)!
    const before = await loadPage(on, '/blog/first-article', admin)
    const bound = before.positions.find((p) => p.pageDataProperty === 'htmlContent')!
    const published = bound.component as string
    expect(before.byId.get(published)?.html).toContain('first article')
    const edited = await on.patch(published, { html: '<p>First article, edited.</p>' }, { token: admin })
    const after = await loadPage(on, '/blog/first-article', admin)
    expect(after.positions.find((p) => p['@id'] === bound['@id'])!.component).toBe(edited.body['@id'])
    expect(htmlOf(after.rendered(false))).toContain('<p>The first article of the demo blog.</p>')
    expect(htmlOf(after.rendered(true))).toContain('<p>First article, edited.</p>')
    const anonymous = await loadPage(on, '/blog/first-article')
    expect(anonymous.positions.find((p) => p['@id'] === bound['@id'])!.component).toBe(published)
  })

  it('?published=true on a position keeps the published IRI (what the live version holds)', async () => {
    const admin = admins.get(on)!
    const page = await loadPage(on, '/', admin)
    const position = page.positions.find(
      (p) => page.byId.get(p.component)?._metadata?.publishable?.published === false,
    )!
    const live = (await on.get(`${position['@id']}?published=true`, { token: admin })).body
    expect(live.component).toBe(page.byId.get(position.component)!.publishedResource)
  })

  it('a collection page of positions finds their drafts in one query, however many positions and drafts', async () => {
    const admin = admins.get(on)!
    const count = async (perPage: number) =>
      (
        await on.countQueries(() =>
          on.get(`${P}/_/component_positions?itemsPerPage=${perPage}&order[createdAt]=desc`, { token: admin }),
        )
      ).queries
    const list = async () =>
      (await on.get(`${P}/_/component_positions?itemsPerPage=100`, { token: admin })).body['hydra:member'] as Resource[]
    const before = await count(100)
    const links = (await on.get(`${P}/component/navigation_links`)).body['hydra:member'] as Resource[]
    expect(links.length).toBeGreaterThanOrEqual(3)
    const drafts: string[] = []
    for (const link of links) {
      const draft = await on.patch(link['@id'], { label: `${link.label} (draft)` }, { token: admin })
      expect(draft.status).toBe(200)
      drafts.push(draft.body['@id'])
    }
    expect(await count(100)).toBe(before)
    expect(await count(1)).toBe(before)
    const components = (await list()).map((p) => p.component)
    expect(components.length).toBeGreaterThan(8)
    expect(components).toEqual(expect.arrayContaining(drafts))
    for (const link of links) expect(components).not.toContain(link['@id'])
  })
})

describe('profile off: the contract as written', () => {
  it("positions keep naming the published IRI for admins (the contract's read routing serves its draft)", async () => {
    const iris = await draftTheTextBlock(off)
    const admin = admins.get(off)!
    const page = await loadPage(off, '/', admin)
    expect(page.positions.some((p) => p.component === iris.published)).toBe(true)
    expect(page.positions.some((p) => p.component === iris.draft)).toBe(false)
    // Reading the published IRI gives the admin the draft, under the draft's @id (what the module needs the profile for).
    const read = (await off.get(iris.published, { token: admin })).body
    expect(read).toMatchObject({ '@id': iris.draft, html: DRAFT })
    expect(page.byId.has(iris.published)).toBe(false)
  })
})
