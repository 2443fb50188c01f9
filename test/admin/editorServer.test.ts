/**
 * Issue 23, the server side of the editor's admin (no browser): a page
 * created through Payload's REST API (the admin's create form) gets the
 * groups pages on its layout have, the JSON-LD API's pages do not; the
 * dashboard's start panel lists drafts and scheduled publications in a
 * number of queries that does not grow with the records; the orphan
 * report names records and says which are gone; Live Preview points at the
 * front end's URL of a record's route.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createLocalReq, type PayloadRequest } from 'payload'
import { startTestServer, type TestServer } from '../support/server'
import { startLists } from '../../plugins/cwa/dist/features/admin/components/startPanelLists.js'
import { describeIris } from '../../plugins/cwa/dist/features/adminTitles/records.js'
import { livePreviewUrl } from '../../plugins/cwa/dist/features/admin/preview.js'

let server: TestServer
let admin: string
let req: PayloadRequest

const rest = (method: string, path: string, body?: unknown) =>
  server.request(method, path, body, {
    contentType: 'application/json',
    headers: { accept: 'application/json', cookie: `api_component=${encodeURIComponent(admin)}` },
  })

beforeAll(async () => {
  server = await startTestServer({ options: { frontEndUrl: 'https://www.example.com/' } })
  admin = await server.tokenFor('ROLE_ADMIN')
  const [user] = (
    await server.payload.find({ collection: 'users', where: { roles: { contains: 'ROLE_ADMIN' } }, limit: 1, depth: 0 })
  ).docs
  req = await createLocalReq({ user: { ...user, collection: 'users' } as never }, server.payload)
})
afterAll(async () => {
  await server?.close()
})

const layoutIri = async (reference: string) =>
  (await server.post('/_api/_/layouts', { reference }, { token: admin })).body['@id'] as string
const idOf = (iri: string) => iri.split('/').pop()!

describe('a page created in the admin (Payload REST)', () => {
  it('gets one group at main when no page on its layout has any', async () => {
    const layout = idOf(await layoutIri('bare'))
    const created = await rest('POST', '/api/pages', { reference: 'first-of-its-kind', title: 'First', layout })
    expect(created.status).toBe(201)
    const page = (await server.payload.findByID({ collection: 'pages', id: created.body.doc.id, depth: 1 })) as any
    expect(page.componentGroups.map((g: any) => [g.reference, g.location])).toEqual([
      ['first-of-its-kind_main', 'main'],
    ])
  })

  it('gets the locations and allowed types of the newest page on its layout with groups', async () => {
    const layout = await layoutIri('two-columns')
    const model = (await server.post('/_api/_/pages', { reference: 'model', title: 'Model', layout }, { token: admin }))
      .body['@id']
    for (const [location, allowed] of [
      ['content', null],
      ['aside', ['/_api/component/html_contents']],
    ] as const) {
      const group = (
        await server.post(
          '/_api/_/component_groups',
          { reference: `model_${location}`, location, ...(allowed ? { allowedComponents: allowed } : {}) },
          { token: admin },
        )
      ).body['@id']
      const groups = (await server.get(model, { token: admin })).body.componentGroups ?? []
      expect((await server.patch(model, { componentGroups: [...groups, group] }, { token: admin })).status).toBe(200)
    }
    const created = await rest('POST', '/api/pages', { reference: 'copy', title: 'Copy', layout: idOf(layout) })
    expect(created.status).toBe(201)
    const page = (await server.payload.findByID({ collection: 'pages', id: created.body.doc.id, depth: 1 })) as any
    expect(page.componentGroups.map((g: any) => [g.reference, g.location, g.allowedComponents])).toEqual([
      ['copy_content', 'content', null],
      // Stored canonical (without the API prefix), as every allowedComponents list.
      ['copy_aside', 'aside', ['/component/html_contents']],
    ])
  })

  it('a page the JSON-LD API creates keeps the groups it was given (none): its clients make their own', async () => {
    const layout = await layoutIri('api-layout')
    const page = await server.post('/_api/_/pages', { reference: 'by-api', title: 'By API', layout }, { token: admin })
    expect(page.status).toBe(201)
    expect(page.body.componentGroups ?? []).toEqual([])
  })
})

describe("the dashboard's start panel", () => {
  it('lists drafts (new, and changes to live records) and scheduled publications, by title and type, in queries that do not grow with the records', async () => {
    const due = new Date(Date.now() + 2 * 86_400_000).toISOString()
    await server.post('/_api/component/html_contents', { html: '<p>Fresh draft words</p>' }, { token: admin })
    await server.post(
      '/_api/component/navigation_links',
      { label: 'Later link', rawPath: '/later', publishedAt: due },
      { token: admin },
    )
    const live = (
      await server.post(
        '/_api/component/html_contents',
        { html: '<p>Live words</p>', publishedAt: new Date(Date.now() - 60_000).toISOString() },
        { token: admin },
      )
    ).body['@id']
    expect((await server.patch(live, { html: '<p>Pending words</p>' }, { token: admin })).status).toBe(200)

    const first = await server.countQueries(() => startLists(req))
    const drafts = first.result.drafts.map((d: any) => [d.title, d.type, d.note])
    expect(drafts).toEqual(
      expect.arrayContaining([
        ['Fresh draft words', 'Rich text', 'new'],
        ['Pending words', 'Rich text', 'draft-of-live'],
      ]),
    )
    const scheduled = first.result.scheduled.find((s: any) => s.title === 'Later link')
    expect(scheduled).toMatchObject({
      type: 'Navigation link',
      publishAt: due,
      href: expect.stringMatching(/^\/admin\/collections\/navigation_links\/[0-9a-f-]{36}$/),
    })
    expect(first.result.recentPages.length).toBeGreaterThan(0)

    for (let i = 0; i < 8; i++)
      await server.post('/_api/component/html_contents', { html: `<p>More draft ${i}</p>` }, { token: admin })
    const second = await server.countQueries(() => startLists(req))
    expect(second.result.drafts).toHaveLength(6)
    expect(second.queries).toBe(first.queries)
  })
})

describe('the orphan report', () => {
  it('names each record by title and type with its age and link, and says which are gone since', async () => {
    const kept = (await server.post('/_api/component/titles', { title: 'Still here' }, { token: admin })).body['@id']
    const gone = (await server.post('/_api/component/titles', { title: 'Gone soon' }, { token: admin })).body['@id']
    expect((await server.delete(gone, { token: admin })).status).toBe(204)
    const rows = await describeIris(req, [kept, gone])
    expect(rows[0]).toMatchObject({
      iri: kept,
      title: 'Still here',
      type: 'Heading',
      exists: true,
      href: `/admin/collections/titles/${idOf(kept)}`,
    })
    expect(rows[0].createdAt).toEqual(expect.any(String))
    expect(rows[1]).toMatchObject({ iri: gone, exists: false, type: 'Heading' })
  })
})

describe('Live Preview', () => {
  it("points at the front end's URL of the record's route, or its home without one", async () => {
    const layout = await layoutIri('preview-layout')
    const page = (
      await server.post('/_api/_/pages', { reference: 'preview', title: 'Preview me', layout }, { token: admin })
    ).body['@id']
    const url = livePreviewUrl('https://www.example.com', null) as (args: any) => Promise<string>
    const pages = server.payload.collections.pages.config
    expect(await url({ data: { id: idOf(page) }, collectionConfig: pages, req })).toBe('https://www.example.com/')
    expect((await server.post('/_api/_/routes', { path: '/preview-me', page }, { token: admin })).status).toBe(201)
    expect(await url({ data: { id: idOf(page) }, collectionConfig: pages, req })).toBe(
      'https://www.example.com/preview-me',
    )
    // The option is set on the collection (pages and page data), with the site's URL.
    expect(typeof (pages.admin as any).livePreview?.url).toBe('function')
  })
})
