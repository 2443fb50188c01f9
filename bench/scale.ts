/**
 * `npm run bench -- --scale`: a large site beside the small one — 10,000
 * pages, each with a route and a group of 10 positions holding 10 published
 * HtmlContents (100,000 components and positions) — written with a few
 * set-based statements on one connection (minutes through the API, seconds
 * this way), then ANALYZEd so the planner knows the sizes. White-box: it
 * names the reference site's tables, as bench/floor.ts does.
 */
import pg from 'pg'
import type { Payload } from 'payload'
import { recomputeEffectiveLiveAt } from '../plugins/cwa/dist/features/routes/access/recompute.js'

export const SCALE_PAGES = Number(process.env.BENCH_SCALE_PAGES ?? 10_000)
export const COMPONENTS_PER_PAGE = 10

export async function seedScale(
  payload: Payload,
  databaseUrl: string,
): Promise<{ pages: number; components: number; ms: number }> {
  const started = performance.now()
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM _acb_layouts ORDER BY created_at LIMIT 1')
    const layout = rows[0]!.id
    await client.query('BEGIN')
    await client.query(
      `CREATE TEMP TABLE scale_pages ON COMMIT DROP AS
      SELECT n, gen_random_uuid() AS page, gen_random_uuid() AS grp FROM generate_series(1, $1::int) n`,
      [SCALE_PAGES],
    )
    await client.query(
      `INSERT INTO _acb_component_groups (id, reference, location) SELECT grp, 'scale-group-' || n, 'primary' FROM scale_pages`,
    )
    await client.query(
      `INSERT INTO _acb_pages (id, reference, title, layout_id) SELECT page, 'scale-page-' || n, 'Scale page ' || n, $1::uuid FROM scale_pages`,
      [layout],
    )
    await client.query(
      `INSERT INTO _acb_pages_rels ("order", parent_id, path, _acb_component_groups_id) SELECT 1, page, 'componentGroups', grp FROM scale_pages`,
    )
    // Distinct creation times, older than the demo's, as on a site built over time: one statement's now() would give
    // every row the same created_at, and newest-first reads (created_at, then id) would sort that whole tie.
    await client.query(`INSERT INTO _acb_routes (path, page_id, live_at, created_at, updated_at)
      SELECT '/scale/' || n, page, now() - interval '1 minute', now() - interval '1 day' - n * interval '1 second', now() - interval '1 day' - n * interval '1 second' FROM scale_pages`)
    await client.query(
      `CREATE TEMP TABLE scale_components ON COMMIT DROP AS
      SELECT s.n, k, s.grp, gen_random_uuid() AS component, gen_random_uuid() AS position FROM scale_pages s, generate_series(1, $1::int) k`,
      [COMPONENTS_PER_PAGE],
    )
    await client.query(`INSERT INTO _acb_html_contents (id, html, published_at, created_at, updated_at)
      SELECT component, '<p>Scale ' || n || '.' || k || '</p>', now() - interval '1 minute', now() - interval '1 day' - (n * 100 + k) * interval '1 second',
        now() - interval '1 day' - (n * 100 + k) * interval '1 second' FROM scale_components`)
    await client.query(
      `INSERT INTO _acb_component_positions (id, component_group_id, sort_value) SELECT position, grp, k FROM scale_components`,
    )
    await client.query(
      `INSERT INTO _acb_component_positions_rels ("order", parent_id, path, _acb_html_contents_id) SELECT 1, position, 'component', component FROM scale_components`,
    )
    await client.query('COMMIT')
    await client.query('ANALYZE')
  } finally {
    await client.end()
  }
  // Written around Payload's hooks: store the effective go-live dates as a write through the API would.
  await recomputeEffectiveLiveAt(payload)
  return { pages: SCALE_PAGES, components: SCALE_PAGES * COMPONENTS_PER_PAGE, ms: performance.now() - started }
}
