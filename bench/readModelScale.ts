/**
 * `npm run bench -- --scale` (with `read model` in BENCH_ONLY, or no
 * BENCH_ONLY): the read model's store at scale. Reads distinct public
 * resources of the seeded site (routes by path, pages, components), more
 * than `readModel.maxEntries`, anonymously, a few at a time, and reports the
 * store's size (answers, bytes of bodies, the table and its indexes on disk)
 * as it fills, then once the bound has evicted the least recently served
 * (enforced every 50 stores: up to 49 more answers between two trims).
 */
import pg from 'pg'
import type { Payload } from 'payload'
import { emptyReadModel, getOptions, readModelSize } from 'payload-cwa'
import { editAndPublish } from './editAndPublish'

const AT_ONCE = 8

async function readAll(base: string, paths: string[]): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < paths.length) {
        const path = paths[next++]!
        const response = await fetch(`${base}${path}`)
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`${path} answered ${response.status}`)
      }
    }),
  )
}

const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

export async function benchReadModelAtScale(
  payload: Payload,
  databaseUrl: string,
  base: string,
  asAdmin: Record<string, string>,
): Promise<string[][]> {
  const max = getOptions(payload.config).readModel.maxEntries
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const paths: string[] = []
  let placed: string
  try {
    // A component on the last seeded page (its position, group, page and route were written in SQL).
    const found = await client.query<{ id: string }>(
      `SELECT r._acb_html_contents_id AS id FROM _acb_component_positions_rels r WHERE r.path = 'component'
        AND r._acb_html_contents_id IS NOT NULL ORDER BY r.id DESC LIMIT 1`,
    )
    placed = found.rows[0]!.id
    // A third each: routes by path, pages, components (published), more than the bound in all.
    const third = Math.ceil((max * 1.2) / 3)
    const routes = await client.query<{ path: string }>(`SELECT path FROM _acb_routes ORDER BY path LIMIT $1`, [third])
    const pages = await client.query<{ id: string }>(`SELECT id FROM _acb_pages ORDER BY id LIMIT $1`, [third])
    const components = await client.query<{ id: string }>(
      `SELECT id FROM _acb_html_contents WHERE published_at <= now() ORDER BY id LIMIT $1`,
      [third],
    )
    paths.push(...routes.rows.map((r) => `/_api/_/routes/${encodeURIComponent(r.path)}`))
    paths.push(...pages.rows.map((r) => `/_api/_/pages/${r.id}`))
    paths.push(...components.rows.map((r) => `/_api/component/html_contents/${r.id}`))
  } finally {
    await client.end()
  }
  const rows = [['read model store at --scale', 'reads', 'answers', 'bodies MiB', 'on disk MiB', 'bytes/answer']]
  const report = async (label: string, reads: number) => {
    const size = await readModelSize(payload)
    rows.push([
      label,
      String(reads),
      String(size.entries),
      mib(size.bodyBytes),
      mib(size.diskBytes),
      size.entries > 0 ? (size.bodyBytes / size.entries).toFixed(0) : '-',
    ])
  }
  // The scale seed wrote in SQL, past every API: the store starts empty (as `cwa:read-model:empty` after such a change).
  await emptyReadModel(payload)
  const half = Math.floor(paths.length / 2)
  const started = performance.now()
  await readAll(base, paths.slice(0, half))
  // The answers are stored beside the responses: let the last ones land.
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await report('half read', half)
  await readAll(base, paths.slice(half))
  await new Promise((resolve) => setTimeout(resolve, 1000))
  await report(`all read (bound ${max})`, paths.length)
  // An edit and a publication of a component placed on a page of the seeded site: its statements, and the time of
  // the one the read model adds (the walk up the structure and the invalidation).
  const queries = await editAndPublish(base, asAdmin, `/_api/component/html_contents/${placed}`)
  const invalidation = queries.find((q) => q.text.includes('read_model_drop'))
  const write = { statements: queries.length, invalidationMs: invalidation?.ms ?? 0 }
  rows.push([
    `an edit and publication of a placed component: ${write.statements} statements, the read model's one ${write.invalidationMs.toFixed(1)} ms`,
    '',
    '',
    '',
    '',
    '',
  ])
  rows.push([
    `${paths.length} distinct reads in ${((performance.now() - started) / 1000).toFixed(1)} s, ${AT_ONCE} at a time`,
    '',
    '',
    '',
    '',
    '',
  ])
  return rows
}
