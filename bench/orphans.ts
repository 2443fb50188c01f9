/**
 * `npm run bench` (or alone: `BENCH_ONLY=orphans npm run bench`): the orphan
 * scan over 10,000 and 100,000 components (time and SQL statements; target:
 * under 2 s at 100,000, three queries at most) and the cascade delete of a
 * page holding 50 components. The components are written with set-based SQL
 * (white-box, like bench/scale.ts): per 10 components, a page with a group of
 * 8 positions, one component owning a nested group of one more, and one
 * orphan in an orphaned group. Then the same scan with a one-hour grace
 * period (orphanedResources.gracePeriodSeconds), every bench record two hours
 * old but 1% of the positions just edited: the cost of the `recent` walk up
 * the chain.
 */
import pg from 'pg'
import type { Payload } from 'payload'
import { scanOrphans } from '../plugins/cwa/dist/features/orphans/index.js'
import { getOptions } from '../plugins/cwa/dist/core/registry.js'
import { explain, logQueries } from './sqlLog'

async function addComponents(databaseUrl: string, count: number, tag: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    const { rows } = await client.query<{ id: string }>('SELECT id FROM _acb_layouts ORDER BY created_at LIMIT 1')
    await client.query('BEGIN')
    await client.query(
      `CREATE TEMP TABLE o_pages ON COMMIT DROP AS
       SELECT n, gen_random_uuid() AS page, gen_random_uuid() AS grp, gen_random_uuid() AS nested, gen_random_uuid() AS owner,
              gen_random_uuid() AS inner_c, gen_random_uuid() AS orphan_grp, gen_random_uuid() AS orphan_c FROM generate_series(1, $1::int) g(k), LATERAL (SELECT $2::text || '-' || k AS n) t`,
      [Math.ceil(count / 10), tag],
    )
    await client.query(`INSERT INTO _acb_component_groups (id, reference, location) SELECT grp, 'o-g-' || n, 'main' FROM o_pages
      UNION ALL SELECT nested, 'o-n-' || n, 'inner' FROM o_pages UNION ALL SELECT orphan_grp, 'o-x-' || n, 'lost' FROM o_pages`)
    await client.query(
      `INSERT INTO _acb_pages (id, reference, title, layout_id) SELECT page, 'o-page-' || n, 'O ' || n, $1::uuid FROM o_pages`,
      [rows[0]!.id],
    )
    await client.query(
      `INSERT INTO _acb_pages_rels ("order", parent_id, path, _acb_component_groups_id) SELECT 1, page, 'componentGroups', grp FROM o_pages`,
    )
    await client.query(
      `CREATE TEMP TABLE o_placed ON COMMIT DROP AS SELECT p.n, k, p.grp, gen_random_uuid() AS c, gen_random_uuid() AS pos FROM o_pages p, generate_series(1, 7) k`,
    )
    await client.query(`INSERT INTO _acb_titles (id, title) SELECT c, 'o' FROM o_placed UNION ALL SELECT owner, 'owner' FROM o_pages
      UNION ALL SELECT inner_c, 'inner' FROM o_pages UNION ALL SELECT orphan_c, 'orphan' FROM o_pages`)
    await client.query(
      `INSERT INTO _acb_titles_rels ("order", parent_id, path, _acb_component_groups_id) SELECT 1, owner, 'componentGroups', nested FROM o_pages`,
    )
    await client.query(`CREATE TEMP TABLE o_positions ON COMMIT DROP AS
      SELECT pos, grp, c, k FROM o_placed
      UNION ALL SELECT gen_random_uuid(), grp, owner, 8 FROM o_pages
      UNION ALL SELECT gen_random_uuid(), nested, inner_c, 1 FROM o_pages
      UNION ALL SELECT gen_random_uuid(), orphan_grp, orphan_c, 1 FROM o_pages`)
    await client.query(
      `INSERT INTO _acb_component_positions (id, component_group_id, sort_value) SELECT pos, grp, k FROM o_positions`,
    )
    await client.query(
      `INSERT INTO _acb_component_positions_rels ("order", parent_id, path, _acb_titles_id) SELECT 1, pos, 'component', c FROM o_positions`,
    )
    await client.query('COMMIT')
    await client.query('ANALYZE')
  } finally {
    await client.end()
  }
}

async function timeScan(
  payload: Payload,
  databaseUrl: string,
): Promise<{ ms: number; queries: number; orphans: number }> {
  const times: number[] = []
  let queries = 0
  let orphans = 0
  for (let i = 0; i < 3; i++) {
    const started = performance.now()
    const { result, queries: logged } = await logQueries(() => scanOrphans(payload))
    times.push(performance.now() - started)
    queries = logged.length
    orphans = result.components.length + result.componentGroups.length + result.componentPositions.length
    if (i === 0 && process.env.BENCH_EXPLAIN)
      for (const plan of await explain(databaseUrl, logged)) console.log(`orphan scan\n${plan}\n`)
  }
  times.sort((a, b) => a - b)
  return { ms: times[1]!, queries, orphans }
}

async function cascadeDelete(payload: Payload): Promise<{ ms: number; queries: number; deleted: number }> {
  const layout = (await payload.find({ collection: 'layouts', limit: 1, depth: 0 })).docs[0]!
  const group = await payload.create({
    collection: 'component_groups',
    data: { reference: `bench-cascade-${Date.now()}` } as never,
    depth: 0,
  })
  for (let i = 0; i < 50; i++) {
    const title = await payload.create({ collection: 'titles', data: { title: `cascade ${i}` } as never, depth: 0 })
    await payload.create({
      collection: 'component_positions',
      data: { componentGroup: group.id, component: { relationTo: 'titles', value: title.id }, sortValue: i } as never,
      depth: 0,
    })
  }
  const page = await payload.create({
    collection: 'pages',
    data: { reference: `bench-cascade-page-${Date.now()}`, layout: layout.id, componentGroups: [group.id] } as never,
    depth: 0,
  })
  const started = performance.now()
  const { queries } = await logQueries(() => payload.delete({ collection: 'pages', id: page.id, depth: 0 }))
  const ms = performance.now() - started
  const left = await payload.count({
    collection: 'component_positions',
    where: { componentGroup: { equals: group.id } },
  })
  if (left.totalDocs !== 0) throw new Error('the cascade left positions behind')
  return { ms, queries: queries.length, deleted: 1 + 1 + 50 + 50 }
}

/** Every bench record two hours old, then 1% of the positions edited just now. */
async function ageAndTouch(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    for (const table of ['_acb_component_groups', '_acb_component_positions', '_acb_titles']) {
      await client.query(
        `UPDATE ${table} SET created_at = now() - interval '2 hours', updated_at = now() - interval '2 hours'`,
      )
    }
    const touched = await client.query(`UPDATE _acb_component_positions SET updated_at = now() WHERE random() < 0.01`)
    await client.query('ANALYZE')
    return touched.rowCount ?? 0
  } finally {
    await client.end()
  }
}

/** The scan with a grace period (the option set for the measurement only). */
async function timeGracedScan(payload: Payload, databaseUrl: string, seconds: number): ReturnType<typeof timeScan> {
  const options = getOptions(payload.config).orphanedResources
  const before = options.gracePeriodSeconds
  options.gracePeriodSeconds = seconds
  try {
    return await timeScan(payload, databaseUrl)
  } finally {
    options.gracePeriodSeconds = before
  }
}

export async function benchOrphans(payload: Payload, databaseUrl: string): Promise<string[][]> {
  const rows: string[][] = [['orphans', 'ms (median of 3)', 'SQL statements', 'orphans listed']]
  await addComponents(databaseUrl, 10_000, 'a')
  const small = await timeScan(payload, databaseUrl)
  rows.push(['scan, 10,000 more components', small.ms.toFixed(0), String(small.queries), String(small.orphans)])
  await addComponents(databaseUrl, 90_000, 'b')
  const large = await timeScan(payload, databaseUrl)
  rows.push(['scan, 100,000 more components', large.ms.toFixed(0), String(large.queries), String(large.orphans)])
  const touched = await ageAndTouch(databaseUrl)
  const graced = await timeGracedScan(payload, databaseUrl, 3600)
  rows.push([
    `scan, 100,000 more, 1-hour grace period, ${touched} positions recent`,
    graced.ms.toFixed(0),
    String(graced.queries),
    String(graced.orphans),
  ])
  const cascade = await cascadeDelete(payload)
  rows.push([
    'cascade DELETE of a page with 50 components',
    cascade.ms.toFixed(0),
    String(cascade.queries),
    `${cascade.deleted} records deleted`,
  ])
  return rows
}
