/**
 * A publishable collection's totalItems from the counts its writes keep
 * (plugins/cwa/features/publishable/counts.ts): installed when the site
 * starts (or, where they are missing, by the first count), exact after every
 * kind of write, never counting what the caller may
 * not see, and never in the way of a write.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { defineComponent } from 'payload-cwa'
import { createRecord } from '../support/fixtures'
import { type MinimalSite, startMinimalSite } from '../support/minimalSite'
import { startTestServer, type TestServer } from '../support/server'
import { waitFor } from '../support/wait'

let server: TestServer
let admin: string
const PATH = '/_api/component/html_contents'
const TABLE = '_acb_html_contents'
const COUNTS = '_acb_row_counts'
const PAST = '2020-01-02T03:04:05.000Z'
const future = () => new Date(Date.now() + 3_600_000).toISOString()

/** What each caller should be told, counted by hand in SQL. */
async function expected(): Promise<{ live: number; admin: number }> {
  const [row] = await server.sql(
    `SELECT count(*) FILTER (WHERE published_at <= now() AND published_resource_id IS NULL)::int AS live,
            (count(*) - count(DISTINCT published_resource_id))::int AS admin
     FROM ${TABLE}`,
  )
  return row
}

const totalFor = async (token?: string, query = ''): Promise<number> => {
  const response = await server.get(`${PATH}${query}`, { token })
  expect(response.status).toBe(200)
  return response.body.totalItems
}

const deltaRows = async (): Promise<number> =>
  (await server.sql(`SELECT count(*)::int AS n FROM ${COUNTS} WHERE table_oid = '${TABLE}'::regclass`))[0].n

/** Reads until the counts are installed (the first count starts the installation beside the request). */
async function installed(): Promise<void> {
  await waitFor(
    async () => {
      await totalFor()
      const present = (await server.sql(`SELECT to_regclass('${COUNTS}') IS NOT NULL AS p`))[0].p
      return present && (await deltaRows()) > 0
    },
    { timeout: 10_000, message: 'the row counts installed' },
  )
}

async function expectExact(): Promise<void> {
  const want = await expected()
  expect({ anonymous: await totalFor(), admin: await totalFor(admin) }).toEqual({
    anonymous: want.live,
    admin: want.admin,
  })
}

beforeAll(async () => {
  // The counts are read by Payload's path: the read model off, or a repeated anonymous read would be a stored answer.
  server = await startTestServer({ options: { readModel: { enabled: false } } })
  admin = await server.tokenFor('ROLE_ADMIN')
  // Installed at start (the database is migrated): the triggers count these.
  for (let i = 0; i < 3; i++)
    await createRecord(server.payload, 'html_contents', { html: `<p>before ${i}</p>`, publishedAt: PAST })
  await createRecord(server.payload, 'html_contents', { html: '<p>draft before</p>' })
  await installed()
}, 120_000)
afterAll(async () => server?.close())

describe('maintained counts of a publishable collection', () => {
  it('are installed when the site starts, and count what was written since', async () => {
    await expectExact()
  })

  it('are what the collection answers with, not a count over the rows', async () => {
    const { sql } = await server.countQueries(() => totalFor())
    expect(sql.some((text) => text.includes(COUNTS))).toBe(true)
    expect(sql.filter((text) => /^select count\(\*\)/i.test(text.trim()))).toEqual([])
  })

  it('stay exact through creates, drafts, scheduling, publishing, twins and deletes on the JSON-LD API', async () => {
    const live = (await server.post(PATH, { html: '<p>live</p>', publishedAt: PAST }, { token: admin })).body[
      '@id'
    ] as string
    await server.post(PATH, { html: '<p>draft</p>' }, { token: admin })
    const scheduled = (await server.post(PATH, { html: '<p>later</p>', publishedAt: future() }, { token: admin })).body[
      '@id'
    ] as string
    await expectExact()
    // A pending edit: a draft twin, listed for the admin in place of its published record.
    const draft = (await server.patch(live, { html: '<p>pending</p>' }, { token: admin })).body['@id'] as string
    expect(draft).not.toBe(live)
    await expectExact()
    // Publishing the twin: its content goes to the published record and the draft goes.
    expect((await server.patch(draft, { publishedAt: PAST }, { token: admin })).status).toBe(200)
    await expectExact()
    // Publishing a scheduled record now.
    expect((await server.patch(scheduled, { publishedAt: PAST }, { token: admin })).status).toBe(200)
    await expectExact()
    expect((await server.delete(live, { token: admin })).status).toBe(204)
    await expectExact()
  })

  it('leave out records scheduled for later until their moment (attack: learning of unpublished records through totalItems)', async () => {
    const before = await totalFor()
    const id = await createRecord(server.payload, 'html_contents', { html: '<p>soon</p>', publishedAt: future() })
    expect(await totalFor()).toBe(before)
    // Its moment comes (set in SQL: the trigger sees it like any write).
    await server.sql(`UPDATE ${TABLE} SET published_at = now() - interval '1 second' WHERE id = $1`, [id])
    expect(await totalFor()).toBe(before + 1)
    await expectExact()
  })

  it('count concurrent writers exactly', async () => {
    await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        server.post(PATH, { html: `<p>c${i}</p>`, ...(i % 2 ? { publishedAt: PAST } : {}) }, { token: admin }),
      ),
    )
    await expectExact()
  })

  it('are folded by the writes: never many delta rows, totals unchanged', async () => {
    for (let i = 0; i < 70; i++)
      await createRecord(server.payload, 'html_contents', { html: `<p>fold ${i}</p>`, publishedAt: PAST })
    // One delta row per write statement; the write that finds more than 64 folds them into one.
    expect(await deltaRows()).toBeLessThanOrEqual(65)
    await expectExact()
  })

  it('give way to a count over the rows for a searched list, and count page data too', async () => {
    const NEWS = '/_api/page_data/news_article_datas'
    const layout = await createRecord(server.payload, 'layouts', { reference: `layout-${Date.now()}` })
    const page = await createRecord(server.payload, 'pages', {
      reference: `tpl-${Date.now()}`,
      title: 'Template',
      isTemplate: true,
      layout,
    })
    const news = (title: string, extra: Record<string, unknown> = {}) =>
      createRecord(server.payload, 'news_article_datas', { title, page, summary: 's', ...extra })
    await news('needle live', { publishedAt: PAST })
    await news('needle draft')
    await news('other live', { publishedAt: PAST })
    await news('needle later', { publishedAt: future() })
    const [row] = await server.sql(
      `SELECT count(*) FILTER (WHERE title ILIKE '%needle%')::int AS searched, count(*)::int AS live
       FROM _acb_news_article_datas WHERE published_at <= now() AND published_resource_id IS NULL`,
    )
    await waitFor(
      async () => {
        await server.get(NEWS)
        return (
          (
            await server.sql(
              `SELECT count(*)::int AS n FROM ${COUNTS} WHERE table_oid = '_acb_news_article_datas'::regclass`,
            )
          )[0].n > 0
        )
      },
      { message: 'the page data row counts installed' },
    )
    expect((await server.get(NEWS)).body.totalItems).toBe(row.live)
    const searched = await server.get(`${NEWS}?search=needle`)
    expect(searched.status).toBe(200)
    expect(searched.body.totalItems).toBe(row.searched)
    expect(searched.body.totalItems).toBe(1)
    // The explicit published view of an admin counts live records too.
    expect(await totalFor(admin, '?published=true')).toBe((await expected()).live)
  })

  it('survive a truncate and a dropped counts table: writes go on, reads count again and reinstall', async () => {
    await server.sql(`TRUNCATE ${TABLE} CASCADE`)
    await expectExact()
    expect(await totalFor()).toBe(0)
    await server.sql(`DROP TABLE ${COUNTS}`)
    await createRecord(server.payload, 'html_contents', { html: '<p>after drop</p>', publishedAt: PAST })
    // This process had read the counts table: the next read counts the rows and installs anew.
    await expectExact()
    await installed()
    await expectExact()
    expect(await totalFor()).toBe(1)
  })

  it('page the collection from the maintained total', async () => {
    for (let i = 0; i < 5; i++)
      await createRecord(server.payload, 'html_contents', { html: `<p>page ${i}</p>`, publishedAt: PAST })
    const total = (await expected()).live
    const response = await server.get(`${PATH}?itemsPerPage=2&page=2`)
    expect(response.status).toBe(200)
    expect(response.body.totalItems).toBe(total)
    expect(response.body.member).toHaveLength(2)
    expect(response.body.view.last).toContain(`page=${Math.ceil(total / 2)}`)
    expect(response.body.view.next).toContain('page=3')
    expect(response.body.view.previous).toContain('page=1')
  })
})

describe('a type whose own read access narrows further', () => {
  // An author's rule beside the publishable one: the counts of all live rows would overcount, so the list counts its rows.
  const Memo = defineComponent({
    shortName: 'Memo',
    publishable: true,
    fields: [{ name: 'text', type: 'text' }],
    collection: { access: { read: ({ req }) => (req.user ? true : { text: { not_equals: 'secret' } }) } },
  })
  let site: MinimalSite

  beforeAll(async () => {
    site = await startMinimalSite({ collections: [Memo] })
  }, 120_000)
  afterAll(async () => site?.close())

  it('is counted over its rows (attack: learning of records the rule hides through totalItems)', async () => {
    for (const text of ['open', 'secret', 'open too'])
      await createRecord(site.payload, 'memos', { text, publishedAt: PAST })
    for (let i = 0; i < 3; i++) {
      const list = await site.get('/_api/component/memos')
      expect(list.status).toBe(200)
      expect({ total: list.body.totalItems, members: list.body.member.length }).toEqual({ total: 2, members: 2 })
    }
  })
})

describe('maintained counts of the routes collection', () => {
  const ROUTES = '_acb_routes'
  let layout: string
  beforeAll(async () => {
    layout = await createRecord(server.payload, 'layouts', { reference: `routes-layout-${Date.now()}` })
  })
  let pages = 0
  const newPage = (extra: Record<string, unknown> = {}) =>
    createRecord(server.payload, 'pages', {
      reference: `routes-page-${Date.now()}-${++pages}`,
      title: 'Routes',
      layout,
      ...extra,
    })

  const expectedRoutes = async () =>
    (
      await server.sql(
        `SELECT count(*) FILTER (WHERE effective_live_at <= now())::int AS live, count(*)::int AS all FROM ${ROUTES}`,
      )
    )[0] as { live: number; all: number }
  const routesTotal = async (token?: string) => {
    const response = await server.get('/_api/_/routes', { token })
    expect(response.status).toBe(200)
    return response.body.totalItems as number
  }

  it('count live routes for the public and every route for an admin, through go-live dates set, cleared and inherited (attack: learning of unpublished routes through totalItems)', async () => {
    const stamp = Date.now()
    const route = async (path: string, liveAt: string | null, page?: string) =>
      createRecord(server.payload, 'routes', { path: `/${stamp}${path}`, page: page ?? (await newPage()), liveAt })
    await route('/live', PAST)
    await route('/later', future())
    const off = await route('/off', PAST)
    // An admin clears a go-live date through the API: the stored effective dates are recomputed.
    expect((await server.patch(`/_api/_/routes/${off}`, { liveAt: null }, { token: admin })).status).toBe(200)
    // A live route under a parent page whose route is not live is not live either (inherited).
    const parent = await newPage()
    await route('/gate', null, parent)
    await route('/gate/child', PAST, await newPage({ parentPage: parent }))
    await waitFor(
      async () =>
        (await server.sql(`SELECT count(*)::int AS n FROM ${COUNTS} WHERE table_oid = '${ROUTES}'::regclass`))[0].n > 0,
      {
        message: 'the routes row counts installed',
      },
    )
    const want = await expectedRoutes()
    expect({ anonymous: await routesTotal(), admin: await routesTotal(admin) }).toEqual({
      anonymous: want.live,
      admin: want.all,
    })
    const { sql } = await server.countQueries(() => routesTotal())
    expect(sql.some((text) => text.includes(COUNTS))).toBe(true)
    expect(sql.filter((text) => /^select count\(\*\)/i.test(text.trim()))).toEqual([])
  })
})
