/**
 * `npm run bench` (alone: `BENCH_ONLY='page publish' npm run bench`): the
 * page builder's "Publish page" (POST /_/page_builder/publish, one
 * transaction through the batch publish) of a page holding 50 blocks with
 * changes: 25 new drafts and 25 live blocks each with a pending edit (a
 * draft twin, the costlier case: references move, the draft goes, the live
 * record takes its content). Goal: under a second on the dev machine.
 * Median of three fresh pages; the SQL statements of the first (BENCH_SQL=1:
 * each run's statements grouped by text, slowest first; BENCH_PROFILE=<dir>:
 * a CPU profile of the first; BENCH_SQL_SEQ=<file>: its statements in order).
 */
import { writeFileSync } from 'node:fs'
import type { Payload } from 'payload'
import { profiled } from './cannon'
import { logQueries } from './sqlLog'

const BLOCKS = 50
const RUNS = 3

/** A page on the demo's first layout with one group of BLOCKS navigation links, half new drafts and half live with a pending edit. */
async function pageWithChanges(
  payload: Payload,
  base: string,
  asAdmin: Record<string, string>,
  run: number,
): Promise<string> {
  const layout = (await payload.find({ collection: 'layouts', limit: 1, depth: 0 })).docs[0]!
  const group = await payload.create({
    collection: 'component_groups',
    data: { reference: `bench-page-publish-${run}-${Date.now()}`, location: 'main' } as never,
    depth: 0,
  })
  const past = new Date(Date.now() - 60_000).toISOString()
  for (let i = 0; i < BLOCKS; i++) {
    const live = i % 2 === 1
    const link = await payload.create({
      collection: 'navigation_links',
      data: { label: `Block ${i}`, rawPath: `/bench/${i}`, ...(live ? { publishedAt: past } : {}) } as never,
      depth: 0,
    })
    if (live) {
      // The pending edit, made as an editor makes it: the API writes it to a draft twin.
      const response = await fetch(`${base}/_api/component/navigation_links/${link.id}`, {
        method: 'PATCH',
        headers: { ...asAdmin, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ label: `Block ${i}, edited` }),
      })
      if (!response.ok) throw new Error(`the bench's pending edit answered ${response.status}`)
    }
    await payload.create({
      collection: 'component_positions',
      data: {
        componentGroup: group.id,
        component: { relationTo: 'navigation_links', value: link.id },
        sortValue: i,
      } as never,
      depth: 0,
    })
  }
  const page = await payload.create({
    collection: 'pages',
    data: {
      reference: `bench-page-publish-${run}-${Date.now()}`,
      title: 'Bench page publish',
      layout: layout.id,
      componentGroups: [group.id],
    } as never,
    depth: 0,
  })
  return String(page.id)
}

export async function benchPagePublish(
  payload: Payload,
  base: string,
  asAdmin: Record<string, string>,
): Promise<string[][]> {
  const rows: string[][] = [['page publish', 'ms (median of 3)', 'slowest ms', 'SQL statements', 'blocks published']]
  const times: number[] = []
  let statements = 0
  let published = 0
  for (let run = 0; run < RUNS; run++) {
    const page = await pageWithChanges(payload, base, asAdmin, run)
    const started = performance.now()
    const { result, queries } = await profiled(run === 0 ? 'page publish' : undefined, () =>
      logQueries(async () => {
        const response = await fetch(`${base}/_api/_/page_builder/publish`, {
          method: 'POST',
          headers: { ...asAdmin, 'content-type': 'application/ld+json', accept: 'application/ld+json' },
          body: JSON.stringify({ iri: `/_api/_/pages/${page}` }),
        })
        return { status: response.status, body: (await response.json()) as { totalItems?: number } }
      }),
    )
    times.push(performance.now() - started)
    if (result.status !== 200 || result.body.totalItems !== BLOCKS)
      throw new Error(`page publish answered ${result.status} with ${result.body.totalItems} blocks published`)
    if (run === 0) statements = queries.length
    if (run === 0 && process.env.BENCH_SQL_SEQ)
      writeFileSync(
        process.env.BENCH_SQL_SEQ,
        queries
          .map((q) => q.text.replace(/\s+/g, ' ').slice(0, 200) + ' ' + JSON.stringify(q.values).slice(0, 120))
          .join('\n'),
      )
    if (process.env.BENCH_SQL) {
      const byText = new Map<string, { n: number; ms: number }>()
      for (const q of queries) {
        const key = q.text.replace(/\s+/g, ' ').slice(0, 140)
        const entry = byText.get(key) ?? { n: 0, ms: 0 }
        entry.n++
        entry.ms += q.ms
        byText.set(key, entry)
      }
      console.log(
        `page publish: ${queries.length} statements, ${queries.reduce((t, q) => t + q.ms, 0).toFixed(0)} ms in SQL`,
      )
      for (const [text, { n, ms }] of [...byText].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25))
        console.log(`${n} x ${ms.toFixed(0)} ms  ${text}`)
    }
    published = result.body.totalItems
  }
  const sorted = [...times].sort((a, b) => a - b)
  rows.push([
    `POST /_/page_builder/publish, ${BLOCKS} blocks (25 new drafts, 25 live with a pending edit)`,
    sorted[1]!.toFixed(0),
    sorted.at(-1)!.toFixed(0),
    String(statements),
    String(published),
  ])
  return rows
}
