/**
 * Migration 20261123_141000_integrity (issue 11, one route per record held
 * by the database): on a database whose records already have two routes it
 * stops with a message naming each record and its routes and changes
 * nothing (which route keeps the record is the editor's call); once the
 * duplicates are gone it adds the unique indexes; `down` removes them.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../../payload.config'
import { startPayload } from '../../src/server/bootstrap'
import { closePayload } from '../../plugins/cwa/dist/core/utils/closePayload.js'
import { createTestDatabase, databaseUrl, dropDatabase } from '../support/database'
import { down, up } from '../../migrations/20261123_141000_integrity'

const INDEXES = [
  '_acb_routes_page_unique',
  '_acb_routes_rels_acb_blog_article_datas_unique',
  '_acb_routes_rels_acb_news_article_datas_unique',
]
const ids = {
  layout: '00000000-0000-4000-8000-000000000011',
  page: '00000000-0000-4000-8000-000000000012',
  article: '00000000-0000-4000-8000-000000000013',
  routeA: '00000000-0000-4000-8000-000000000021',
  routeB: '00000000-0000-4000-8000-000000000022',
  routeC: '00000000-0000-4000-8000-000000000023',
  routeD: '00000000-0000-4000-8000-000000000024',
}
let database: string
let client: pg.Client
let payload: Payload | undefined

const indexes = async () =>
  (
    await client.query(`SELECT indexname FROM pg_indexes WHERE indexname = ANY($1) ORDER BY indexname`, [INDEXES])
  ).rows.map((r) => r.indexname)
const migrationArgs = () =>
  ({ db: (payload!.db as unknown as { drizzle: unknown }).drizzle, payload, req: {} }) as never

beforeAll(async () => {
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  client = new pg.Client({ connectionString: databaseUrl(database) })
  await client.connect()
  payload = await startPayload({
    config: buildSiteConfig({ databaseUrl: databaseUrl(database), options: {} }),
    key: database,
  })
})
afterAll(async () => {
  if (payload) await closePayload(payload)
  await client?.end()
  if (database) await dropDatabase(database)
})

describe('migration 20261123_141000_integrity', () => {
  it('is applied to a new database: the three unique indexes exist', async () => {
    expect(await indexes()).toEqual([...INDEXES].sort())
  })

  it('down removes them; up on a database with duplicate routes stops, names them, and changes nothing', async () => {
    await down(migrationArgs())
    expect(await indexes()).toEqual([])
    await client.query(`INSERT INTO _acb_layouts (id, reference) VALUES ($1, 'mig-layout')`, [ids.layout])
    await client.query(
      `INSERT INTO _acb_pages (id, reference, is_template, layout_id) VALUES ($1, 'mig-page', false, $2)`,
      [ids.page, ids.layout],
    )
    await client.query(`INSERT INTO _acb_blog_article_datas (id, title, page_id) VALUES ($1, 'Mig Article', $2)`, [
      ids.article,
      ids.page,
    ])
    await client.query(`INSERT INTO _acb_routes (id, path, page_id) VALUES ($1, '/dup-a', $3), ($2, '/dup-b', $3)`, [
      ids.routeA,
      ids.routeB,
      ids.page,
    ])
    await client.query(`INSERT INTO _acb_routes (id, path) VALUES ($1, '/dup-c'), ($2, '/dup-d')`, [
      ids.routeC,
      ids.routeD,
    ])
    await client.query(
      `INSERT INTO _acb_routes_rels ("order", parent_id, path, _acb_blog_article_datas_id) VALUES (1, $1, 'pageData', $3), (1, $2, 'pageData', $3)`,
      [ids.routeC, ids.routeD, ids.article],
    )
    const error = (await up(migrationArgs()).then(
      () => null,
      (e: unknown) => e,
    )) as Error | null
    expect(error).toBeInstanceOf(Error)
    expect(error!.message).toContain('2 record(s) have more than one route')
    expect(error!.message).toContain(`pages ${ids.page}: /dup-a, /dup-b`)
    expect(error!.message).toContain(`blog_article_datas ${ids.article}: /dup-c, /dup-d`)
    expect(error!.message).toContain('Nothing was changed.')
    expect(await indexes()).toEqual([])
  })

  it('up succeeds once the duplicates are resolved, and the indexes then refuse a second route', async () => {
    // The editor's fix: the extra routes become redirects to the ones kept.
    await client.query(`UPDATE _acb_routes SET page_id = NULL, redirect_id = $1 WHERE id = $2`, [
      ids.routeA,
      ids.routeB,
    ])
    await client.query(`DELETE FROM _acb_routes_rels WHERE parent_id = $1`, [ids.routeD])
    await client.query(`UPDATE _acb_routes SET redirect_id = $1 WHERE id = $2`, [ids.routeC, ids.routeD])
    await up(migrationArgs())
    expect(await indexes()).toEqual([...INDEXES].sort())
    await expect(
      client.query(`INSERT INTO _acb_routes (path, page_id) VALUES ('/dup-e', $1)`, [ids.page]),
    ).rejects.toMatchObject({ code: '23505' })
    await expect(
      client.query(
        `INSERT INTO _acb_routes_rels ("order", parent_id, path, _acb_blog_article_datas_id) VALUES (1, $1, 'pageData', $2)`,
        [ids.routeD, ids.article],
      ),
    ).rejects.toMatchObject({ code: '23505', constraint: '_acb_routes_rels_acb_blog_article_datas_unique' })
  })
})
