import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import pg from 'pg'
import type { Payload } from 'payload'
import { buildSiteConfig } from '../../../payload.config'
import { startPayload } from '../../../src/server/bootstrap'
import { closePayload } from '../../../plugins/cwa/dist/core/utils/closePayload.js'
import { createTestDatabase, databaseUrl, dropDatabase } from '../../support/database'

/**
 * A site that had routes before effective go-live dates were stored: the
 * migration adding the column fills it for every existing route (the
 * inheritance rules of the contract), so no route goes dark or goes live
 * early on upgrade.
 */

const MIGRATION = '20261122_083006_route_effective_live_at'
let database: string
let client: pg.Client
let payload: Payload | undefined

const ids = {
  layout: '00000000-0000-4000-8000-000000000001',
  parent: '00000000-0000-4000-8000-000000000002',
  middle: '00000000-0000-4000-8000-000000000003',
  child: '00000000-0000-4000-8000-000000000004',
  gated: '00000000-0000-4000-8000-000000000005',
}

beforeAll(async () => {
  database = await createTestDatabase(process.env.CWA_TEST_TEMPLATE!)
  client = new pg.Client({ connectionString: databaseUrl(database) })
  await client.connect()
  // Back to the schema before the migration: no column, the migration not applied (later migrations stay
  // applied: they do not touch this column, and re-running them would only test that they are re-runnable).
  await client.query(`ALTER TABLE _acb_routes DROP COLUMN effective_live_at`)
  await client.query(`DELETE FROM payload_migrations WHERE name = $1`, [MIGRATION])
  await client.query(`INSERT INTO _acb_layouts (id, reference) VALUES ($1, 'main')`, [ids.layout])
  const page = (id: string, reference: string, parent: string | null) =>
    client.query(
      `INSERT INTO _acb_pages (id, reference, is_template, layout_id, parent_page_id) VALUES ($1, $2, false, $3, $4)`,
      [id, reference, ids.layout, parent],
    )
  await page(ids.parent, 'parent', null)
  await page(ids.middle, 'middle', ids.parent) // no route: skipped
  await page(ids.child, 'child', ids.middle)
  await page(ids.gated, 'gated', ids.parent)
  const route = (path: string, pageId: string, liveAt: string | null) =>
    client.query(`INSERT INTO _acb_routes (path, page_id, live_at) VALUES ($1, $2, $3)`, [path, pageId, liveAt])
  await route('/parent', ids.parent, '2030-01-01T00:00:00Z') // scheduled
  await route('/parent/middle/child', ids.child, '2020-01-01T00:00:00Z')
  await route('/parent/gated', ids.gated, null)
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

describe('migration of existing routes', () => {
  it('stores each route its inherited go-live date: latest of its routed ancestors, null when one is null', async () => {
    const { rows } = await client.query(`SELECT path, effective_live_at FROM _acb_routes ORDER BY path`)
    const byPath = Object.fromEntries(
      rows.map((r) => [r.path, r.effective_live_at ? new Date(r.effective_live_at).toISOString() : null]),
    )
    expect(byPath).toEqual({
      '/parent': '2030-01-01T00:00:00.000Z',
      '/parent/gated': null,
      '/parent/middle/child': '2030-01-01T00:00:00.000Z',
    })
  })
})
