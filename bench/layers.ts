/**
 * Where a read's and a write's time goes, layer by layer, in this process
 * and one call at a time (no HTTP, no concurrency): the same page read as
 * hand-written SQL on a raw pg client (the floor's statement), through
 * Payload's database adapter (`payload.db.findOne`: drizzle builds the
 * statement and shapes the row), through Payload's Local API
 * (`payload.findByID` as an anonymous caller: access, hooks, field
 * traversal), and as the JSON-LD request over loopback HTTP (beside the
 * entrypoint, which reads nothing: the HTTP client and server). A write: one
 * column updated in a transaction by hand, then through `payload.update`.
 * What each layer adds bounds what any request built on it can reach:
 * a goal below a layer's own cost cannot be met through that layer.
 * White-box: it names the reference site's tables.
 */
import pg from 'pg'
import type { Payload } from 'payload'

export interface LayerRow {
  layer: string
  medianMs: number
  cpuMs: number
}

const ROUNDS = Number(process.env.BENCH_LAYER_ROUNDS ?? 400)

async function measure(layer: string, call: () => Promise<unknown>): Promise<LayerRow> {
  for (let i = 0; i < 30; i++) await call()
  const times: number[] = []
  const cpu = process.cpuUsage()
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint()
    await call()
    times.push(Number(process.hrtime.bigint() - start) / 1e6)
  }
  const used = process.cpuUsage(cpu)
  times.sort((a, b) => a - b)
  return { layer, medianMs: times[Math.floor(times.length / 2)]!, cpuMs: (used.user + used.system) / 1000 / ROUNDS }
}

export async function measureLayers(
  payload: Payload,
  databaseUrl: string,
  base: string,
  ids: { page: string; component: string },
): Promise<string[][]> {
  const client = new pg.Client({ connectionString: databaseUrl, options: '-c jit=off' })
  await client.connect()
  try {
    const pageSql = {
      name: 'layers_page',
      text: `SELECT to_jsonb(p) AS row, (SELECT r.id FROM _acb_routes r WHERE r.page_id = p.id) AS route,
        ARRAY(SELECT g._acb_component_groups_id FROM _acb_pages_rels g WHERE g.parent_id = p.id AND g.path = 'componentGroups' ORDER BY g."order") AS groups
        FROM _acb_pages p WHERE p.id = $1`,
      values: [ids.page],
    }
    let n = 0
    const rows = [
      await measure('page read: hand-written SQL, raw pg client', () => client.query(pageSql)),
      await measure("page read: Payload's adapter (payload.db.findOne)", () =>
        payload.db.findOne({ collection: 'pages', where: { id: { equals: ids.page } } }),
      ),
      await measure("page read: Payload's Local API, anonymous (payload.findByID)", () =>
        payload.findByID({ collection: 'pages', id: ids.page, depth: 0, overrideAccess: false, user: null }),
      ),
      // Over HTTP the client (fetch) runs in this process too: the entrypoint, which reads nothing, shows that part.
      await measure('no read: the JSON-LD entrypoint over HTTP (GET /_api/, no SQL)', async () =>
        (await fetch(`${base}/_api/`)).arrayBuffer(),
      ),
      await measure('page read: JSON-LD over HTTP (GET /_api/_/pages/{id})', async () =>
        (await fetch(`${base}/_api/_/pages/${ids.page}`)).arrayBuffer(),
      ),
      await measure('write: UPDATE in a transaction, raw pg client', async () => {
        await client.query('BEGIN')
        await client.query({
          name: 'layers_update',
          text: 'UPDATE _acb_html_contents SET html = $2, updated_at = now() WHERE id = $1',
          values: [ids.component, `<p>layers ${n++}</p>`],
        })
        await client.query('COMMIT')
      }),
      await measure("write: Payload's Local API with the site's hooks (payload.update)", () =>
        payload.update({
          collection: 'html_contents',
          id: ids.component,
          data: { html: `<p>layers ${n++}</p>` } as never,
          depth: 0,
        }),
      ),
    ]
    return [
      ['layer (one call at a time, in process)', 'median ms', 'CPU ms/call'],
      ...rows.map((r) => [r.layer, r.medianMs.toFixed(2), r.cpuMs.toFixed(2)]),
    ]
  } finally {
    await client.end()
  }
}
