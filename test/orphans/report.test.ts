import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import { onWriteEvent, type WriteEvent } from '../../plugins/cwa/dist/core/events/index.js'
import { scanOrphans } from '../../plugins/cwa/dist/features/orphans/index.js'
import { createRecord } from '../support/fixtures'
import { startTestServer, type TestServer } from '../support/server'
import { exists, group, layout, page, position, surviving, title } from '../support/componentTree'

/**
 * Issue 13: the orphan definition (contract, "Orphaned-resource report"),
 * the stored report and its endpoints (POST /_/orphaned_resources/scan, GET
 * /_/orphaned_resources, POST /_/orphaned_resources/delete with delete rules
 * 1-5) on the reference site.
 */

let server: TestServer
let admin: string
let user: string

const GROUPS = '/_api/_/component_groups'
const POSITIONS = '/_api/_/component_positions'
const TITLES = '/_api/component/titles'
const HTML = '/_api/component/html_contents'

beforeAll(async () => {
  server = await startTestServer()
  admin = await server.tokenFor('ROLE_ADMIN')
  user = await server.tokenFor('ROLE_USER')
})
afterAll(async () => {
  await server?.close()
})

async function scan(): Promise<{
  componentGroups: string[]
  componentPositions: string[]
  components: string[]
  generatedAt: string
}> {
  const response = await server.post('/_api/_/orphaned_resources/scan', undefined, { token: admin })
  expect(response.status).toBe(202)
  return response.body
}

/** A live page: layout + page owning a group. */
async function livePage() {
  const p = server.payload
  const g = await group(p)
  const l = await layout(p)
  const pg = await page(p, l, [g])
  return { group: g, layout: l, page: pg }
}

describe('before the first scan', () => {
  it('GET /_/orphaned_resources is a 404', async () => {
    const response = await server.get('/_api/_/orphaned_resources', { token: admin })
    expect(response.status).toBe(404)
  })
})

describe('access', () => {
  it.each([
    ['POST', '/_api/_/orphaned_resources/scan', undefined],
    ['GET', '/_api/_/orphaned_resources', undefined],
    ['POST', '/_api/_/orphaned_resources/delete', { all: true }],
    ['GET', `/_api/_/usage?iri=${TITLES}/00000000-0000-4000-8000-000000000000`, undefined],
  ])(
    'security: %s %s is admin only (401 anonymous, 403 ROLE_USER): no one else reads or sweeps the tree',
    async (method, path, body) => {
      const orphan = await title(server.payload)
      expect((await server.request(method, path, body)).status).toBe(401)
      expect((await server.request(method, path, body, { token: user })).status).toBe(403)
      expect(await exists(server, '_acb_titles', orphan)).toBe(true)
    },
  )

  it('security: a cross-site browser POST of the body-less scan is refused (403) even with the admin cookie (CSRF); a client sending no Origin passes', async () => {
    await scan()
    const before = (await server.get('/_api/_/orphaned_resources', { token: admin })).body.generatedAt
    const { cookieHeader } = await import('../support/sessionCookies')
    const forged = await server.request('POST', '/_api/_/orphaned_resources/scan', undefined, {
      headers: { cookie: cookieHeader({ jwt: admin }), origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    })
    expect(forged.status).toBe(403)
    expect((await server.get('/_api/_/orphaned_resources', { token: admin })).body.generatedAt).toBe(before)
    const script = await server.request('POST', '/_api/_/orphaned_resources/scan', undefined, {
      headers: { cookie: cookieHeader({ jwt: admin }) },
    })
    expect(script.status).toBe(202)
  })
})

describe('the orphan definition', () => {
  it('lists nothing of a live tree: page and layout groups, their positions and components, nested groups of live components', async () => {
    const p = server.payload
    const live = await livePage()
    const nested = await group(p)
    const inner = await title(p)
    const innerPosition = await position(p, nested, { slug: 'titles', id: inner })
    const outer = await title(p, [nested])
    const outerPosition = await position(p, live.group, { slug: 'titles', id: outer })
    const layoutGroup = await group(p)
    const inLayout = await title(p)
    await createRecord(p, 'layouts', { reference: `l-${inLayout}`, componentGroups: [layoutGroup] })
    const layoutPosition = await position(p, layoutGroup, { slug: 'titles', id: inLayout })
    const report = await scan()
    const listed = [...report.componentGroups, ...report.componentPositions, ...report.components]
    for (const iri of [
      `${GROUPS}/${live.group}`,
      `${GROUPS}/${nested}`,
      `${GROUPS}/${layoutGroup}`,
      `${POSITIONS}/${innerPosition}`,
      `${POSITIONS}/${outerPosition}`,
      `${POSITIONS}/${layoutPosition}`,
      `${TITLES}/${inner}`,
      `${TITLES}/${outer}`,
      `${TITLES}/${inLayout}`,
    ]) {
      expect(listed).not.toContain(iri)
    }
  })

  it('lists a chain orphaned only through a parent: the orphaned component, the group it owns, its positions and their components', async () => {
    const p = server.payload
    const g = await group(p)
    const child = await title(p)
    const childPosition = await position(p, g, { slug: 'titles', id: child })
    const parent = await title(p, [g])
    const report = await scan()
    expect(report.components).toEqual(expect.arrayContaining([`${TITLES}/${parent}`, `${TITLES}/${child}`]))
    expect(report.componentGroups).toContain(`${GROUPS}/${g}`)
    expect(report.componentPositions).toContain(`${POSITIONS}/${childPosition}`)
  })

  it('lists a cycle nothing live reaches, and nothing of the same cycle once a live group holds it', async () => {
    const p = server.payload
    const gx = await group(p)
    const gy = await group(p)
    const x = await title(p, [gx])
    const y = await title(p, [gy])
    const px = await position(p, gx, { slug: 'titles', id: y })
    const py = await position(p, gy, { slug: 'titles', id: x })
    let report = await scan()
    expect(report.components).toEqual(expect.arrayContaining([`${TITLES}/${x}`, `${TITLES}/${y}`]))
    expect(report.componentGroups).toEqual(expect.arrayContaining([`${GROUPS}/${gx}`, `${GROUPS}/${gy}`]))
    expect(report.componentPositions).toEqual(expect.arrayContaining([`${POSITIONS}/${px}`, `${POSITIONS}/${py}`]))

    const live = await livePage()
    await position(p, live.group, { slug: 'titles', id: x })
    report = await scan()
    const listed = [...report.componentGroups, ...report.componentPositions, ...report.components]
    for (const iri of [
      `${TITLES}/${x}`,
      `${TITLES}/${y}`,
      `${GROUPS}/${gx}`,
      `${GROUPS}/${gy}`,
      `${POSITIONS}/${px}`,
      `${POSITIONS}/${py}`,
    ])
      expect(listed).not.toContain(iri)
  })

  it('lists a position with neither a component nor a page data property, even in a live group; a bound position is not listed', async () => {
    const live = await livePage()
    const empty = await position(server.payload, live.group)
    const bound = await position(server.payload, live.group, undefined, {
      pageDataClass: 'BlogArticleData',
      pageDataProperty: 'htmlContent',
    })
    const report = await scan()
    expect(report.componentPositions).toContain(`${POSITIONS}/${empty}`)
    expect(report.componentPositions).not.toContain(`${POSITIONS}/${bound}`)
  })

  it('counts a component held by a page data property as used', async () => {
    const p = server.payload
    const l = await layout(p)
    const template = await page(p, l, [], { isTemplate: true })
    const held = await createRecord(p, 'html_contents', { html: '<p>held</p>', publishedAt: new Date().toISOString() })
    await createRecord(p, 'blog_article_datas', { title: 'Post', page: template, htmlContent: held })
    const report = await scan()
    expect(report.components).not.toContain(`${HTML}/${held}`)
  })

  it('never lists a draft: it is judged through its published version (an orphaned published component is listed, its draft is not)', async () => {
    const make = async () => {
      const published = await createRecord(server.payload, 'html_contents', {
        html: '<p>live</p>',
        publishedAt: new Date(Date.now() - 60_000).toISOString(),
      })
      const response = await server.patch(`${HTML}/${published}`, { html: '<p>pending</p>' }, { token: admin })
      expect(response.status).toBe(200)
      const [row] = await server.sql('SELECT id::text FROM _acb_html_contents WHERE published_resource_id = $1', [
        published,
      ])
      return { published, draft: row.id as string }
    }
    const orphaned = await make()
    const placed = await make()
    const live = await livePage()
    await position(server.payload, live.group, { slug: 'html_contents', id: placed.published })
    const report = await scan()
    expect(report.components).toContain(`${HTML}/${orphaned.published}`)
    expect(report.components).not.toContain(`${HTML}/${orphaned.draft}`)
    expect(report.components).not.toContain(`${HTML}/${placed.published}`)
    expect(report.components).not.toContain(`${HTML}/${placed.draft}`)
  })

  it('is one SQL statement whatever the size (the report stored by one more)', async () => {
    const { queries, result } = await server.countQueries(() => scanOrphans(server.payload))
    expect(queries).toBe(1)
    expect(result.components.length).toBeGreaterThan(0)
  })
})

describe('the stored report', () => {
  it('is returned by GET, private and no-store, with generatedAt in microseconds; the next scan replaces it', async () => {
    const first = await scan()
    expect(first.generatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    const response = await server.get('/_api/_/orphaned_resources', { token: admin })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.body).toMatchObject({
      generatedAt: first.generatedAt,
      components: first.components,
      componentGroups: first.componentGroups,
      componentPositions: first.componentPositions,
    })
    const orphan = await title(server.payload)
    const second = await scan()
    expect(second.generatedAt > first.generatedAt).toBe(true)
    expect(second.components).toContain(`${TITLES}/${orphan}`)
    expect(
      (
        await server.sql('SELECT count(*)::int AS n FROM _acb_orphaned_resources_reports WHERE kind = $1', ['latest'])
      )[0].n,
    ).toBe(1)
  })
})

describe('the answers of the orphan endpoints', () => {
  it('name an @context that resolves (GET answers 200 with a JSON-LD context)', async () => {
    const scanned = await server.post('/_api/_/orphaned_resources/scan', undefined, { token: admin })
    const report = await server.get('/_api/_/orphaned_resources', { token: admin })
    const deleted = await server.post(
      '/_api/_/orphaned_resources/delete',
      { iris: [`${TITLES}/${await title(server.payload)}`] },
      { token: admin },
    )
    expect([scanned.status, report.status, deleted.status]).toEqual([202, 200, 200])
    for (const body of [scanned.body, report.body, deleted.body]) {
      const context = await server.get(body['@context'])
      expect({ iri: body['@context'], status: context.status, hasContext: typeof context.body?.['@context'] }).toEqual({
        iri: body['@context'],
        status: 200,
        hasContext: 'object',
      })
    }
  })
})

describe('POST /_/orphaned_resources/delete', () => {
  it.each([[{}], [{ all: false }], [{ all: true, iris: [] }], [{ iris: 'nope' }], [[]]])(
    'rule 1: %j is a 422 and deletes nothing',
    async (body) => {
      const orphan = await title(server.payload)
      const response = await server.post('/_api/_/orphaned_resources/delete', body, { token: admin })
      expect(response.status).toBe(422)
      expect(await exists(server, '_acb_titles', orphan)).toBe(true)
    },
  )

  it('rules 2-4: deletes only current orphans with their cascade, lists each IRI once, rejects the others with their reason, refreshes the report', async () => {
    const p = server.payload
    const orphanGroup = await group(p)
    const onlyThere = await title(p)
    const inGroup = await position(p, orphanGroup, { slug: 'titles', id: onlyThere })
    const owner = await title(p, [orphanGroup])
    const loose = await title(p)
    const live = await livePage()
    const used = await title(p)
    await position(p, live.group, { slug: 'titles', id: used })
    const missing = `${TITLES}/00000000-0000-4000-8000-000000000000`
    const response = await server.post(
      '/_api/_/orphaned_resources/delete',
      {
        iris: [
          `${TITLES}/${owner}`,
          `${TITLES}/${loose}`,
          `${TITLES}/${loose}`,
          `${TITLES}/${used}`,
          missing,
          'not an iri',
          `${GROUPS}/${live.group}`,
        ],
      },
      { token: admin },
    )
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    const { deleted, rejected } = response.body
    expect([...deleted.components].sort()).toEqual(
      [`${TITLES}/${owner}`, `${TITLES}/${loose}`, `${TITLES}/${onlyThere}`].sort(),
    )
    expect(deleted.componentGroups).toEqual([`${GROUPS}/${orphanGroup}`])
    expect(deleted.componentPositions).toEqual([`${POSITIONS}/${inGroup}`])
    expect(rejected).toEqual([
      { iri: `${TITLES}/${used}`, reason: 'not_orphaned' },
      { iri: missing, reason: 'not_found' },
      { iri: 'not an iri', reason: 'not_found' },
      { iri: `${GROUPS}/${live.group}`, reason: 'not_orphaned' },
    ])
    expect(await surviving(server, '_acb_titles', [owner, loose, onlyThere, used])).toEqual([used])
    const report = (await server.get('/_api/_/orphaned_resources', { token: admin })).body
    expect(report.components).not.toContain(`${TITLES}/${loose}`)
  })

  it('rejects a draft IRI as not_orphaned; deleting its orphaned published version takes the draft too', async () => {
    const published = await createRecord(server.payload, 'html_contents', {
      html: '<p>x</p>',
      publishedAt: new Date(Date.now() - 60_000).toISOString(),
    })
    expect((await server.patch(`${HTML}/${published}`, { html: '<p>y</p>' }, { token: admin })).status).toBe(200)
    const [row] = await server.sql('SELECT id::text FROM _acb_html_contents WHERE published_resource_id = $1', [
      published,
    ])
    const first = await server.post(
      '/_api/_/orphaned_resources/delete',
      { iris: [`${HTML}/${row.id}`] },
      { token: admin },
    )
    expect(first.body.rejected).toEqual([{ iri: `${HTML}/${row.id}`, reason: 'not_orphaned' }])
    const second = await server.post(
      '/_api/_/orphaned_resources/delete',
      { iris: [`${HTML}/${published}`] },
      { token: admin },
    )
    expect([...second.body.deleted.components].sort()).toEqual([`${HTML}/${published}`, `${HTML}/${row.id}`].sort())
    expect(await surviving(server, '_acb_html_contents', [published, row.id])).toEqual([])
  })

  it('a concurrent placement of the same component wins: the placed component survives', async () => {
    const p = server.payload
    const live = await livePage()
    const orphan = await title(p)
    const client = new pg.Client({ connectionString: server.databaseUrl })
    await client.connect()
    try {
      await client.query('BEGIN')
      const { rows } = await client.query(
        'INSERT INTO _acb_component_positions (component_group_id, sort_value) VALUES ($1, 0) RETURNING id::text',
        [live.group],
      )
      await client.query(
        `INSERT INTO _acb_component_positions_rels ("order", parent_id, path, _acb_titles_id) VALUES (1, $1, 'component', $2)`,
        [rows[0].id, orphan],
      )
      const pending = server.post(
        '/_api/_/orphaned_resources/delete',
        { iris: [`${TITLES}/${orphan}`] },
        { token: admin },
      )
      // The delete is now waiting for the placement's lock on the component.
      await new Promise((resolve) => setTimeout(resolve, 500))
      await client.query('COMMIT')
      const response = await pending
      expect(response.status).toBe(200)
      expect(response.body.rejected).toEqual([{ iri: `${TITLES}/${orphan}`, reason: 'not_orphaned' }])
      expect(await exists(server, '_acb_titles', orphan)).toBe(true)
      expect(await exists(server, '_acb_component_positions', rows[0].id)).toBe(true)
    } finally {
      await client.end()
    }
  })

  it('all: true deletes every current orphan (rejected is empty) and leaves the report empty', async () => {
    const p = server.payload
    const g = await group(p)
    await position(p, g, { slug: 'titles', id: await title(p) })
    await title(p)
    const live = await livePage()
    const kept = await title(p)
    await position(p, live.group, { slug: 'titles', id: kept })
    const response = await server.post('/_api/_/orphaned_resources/delete', { all: true }, { token: admin })
    expect(response.status).toBe(200)
    expect(response.body.rejected).toEqual([])
    expect(response.body.deleted.componentGroups).toContain(`${GROUPS}/${g}`)
    const report = (await server.get('/_api/_/orphaned_resources', { token: admin })).body
    expect(report).toMatchObject({ componentGroups: [], componentPositions: [], components: [] })
    expect(await exists(server, '_acb_titles', kept)).toBe(true)
  })
})

describe('write events of the delete endpoint', () => {
  it('one delete event per deleted record (group, positions, components, draft), after the commit; none for an empty delete', async () => {
    const p = server.payload
    const g = await group(p)
    const inside = await title(p)
    const pos = await position(p, g, { slug: 'titles', id: inside })
    const owner = await title(p, [g])
    const events: WriteEvent[] = []
    const off = onWriteEvent((batch) => {
      events.push(...batch)
    })
    try {
      const response = await server.post(
        '/_api/_/orphaned_resources/delete',
        { iris: [`${TITLES}/${owner}`] },
        { token: admin },
      )
      expect(response.status).toBe(200)
      const deletes = events
        .filter((e) => e.type === 'delete')
        .map((e) => e.iri)
        .sort()
      expect(deletes).toEqual(
        [`${GROUPS}/${g}`, `${POSITIONS}/${pos}`, `${TITLES}/${inside}`, `${TITLES}/${owner}`].sort(),
      )
      events.length = 0
      const none = await server.post(
        '/_api/_/orphaned_resources/delete',
        { iris: [`${TITLES}/${owner}`] },
        { token: admin },
      )
      expect(none.body.rejected).toEqual([{ iri: `${TITLES}/${owner}`, reason: 'not_found' }])
      expect(events.filter((e) => e.type === 'delete')).toEqual([])
    } finally {
      off()
    }
  })

  it('a refused cascade (422) emits nothing', async () => {
    const p = server.payload
    const g = await group(p)
    await position(p, g, { slug: 'titles', id: await title(p) })
    const l = await layout(p, [g])
    await page(p, l)
    const events: WriteEvent[] = []
    const off = onWriteEvent((batch) => {
      events.push(...batch)
    })
    try {
      expect((await server.delete(`/_api/_/layouts/${l}`, { token: admin })).status).toBe(422)
      expect(events).toEqual([])
    } finally {
      off()
    }
  })
})

describe('GET /_/usage', () => {
  it('lists every place a component is used: positions with their owner, page data properties, its draft', async () => {
    const p = server.payload
    const published = await createRecord(p, 'html_contents', {
      html: '<p>x</p>',
      publishedAt: new Date(Date.now() - 60_000).toISOString(),
    })
    const live = await livePage()
    const placed = await position(p, live.group, { slug: 'html_contents', id: published })
    const template = await page(p, await layout(p), [], { isTemplate: true })
    const data = await createRecord(p, 'blog_article_datas', { title: 'Post', page: template, htmlContent: published })
    expect((await server.patch(`${HTML}/${published}`, { html: '<p>y</p>' }, { token: admin })).status).toBe(200)
    const [draft] = await server.sql('SELECT id::text FROM _acb_html_contents WHERE published_resource_id = $1', [
      published,
    ])
    const { result: response, queries } = await server.countQueries(() =>
      server.get(`/_api/_/usage?iri=${encodeURIComponent(`${HTML}/${published}`)}`, { token: admin }),
    )
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      component: `${HTML}/${published}`,
      positions: [
        {
          position: `${POSITIONS}/${placed}`,
          componentGroup: `${GROUPS}/${live.group}`,
          owner: `/_api/_/pages/${live.page}`,
          pageDataProperty: null,
        },
      ],
      pageData: [{ pageData: `/_api/page_data/blog_article_datas/${data}`, property: 'htmlContent' }],
      draft: `${HTML}/${draft.id}`,
      published: null,
    })
    // The caller's session check, then the one usage query.
    expect(queries).toBeLessThanOrEqual(3)
    expect(
      (
        await server.get(`/_api/_/usage?iri=${encodeURIComponent(`${HTML}/00000000-0000-4000-8000-000000000000`)}`, {
          token: admin,
        })
      ).status,
    ).toBe(404)
    expect((await server.get('/_api/_/usage?iri=nope', { token: admin })).status).toBe(422)
  })
})
