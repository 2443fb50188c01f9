/** Publishing drafts under load (npm run bench, target name `publish`). */
import type { Payload } from 'payload'
import { PUBLISHABLE_TWIN_LINK } from 'payload-cwa'
import { runLoad } from '../cannon'
import { logQueries } from '../sqlLog'
import { CONNECTIONS, PUBLICATIONS } from './settings'

export /** Publishing fresh drafts: the SQL of one publication, then latency at 1, 10 and 50 connections. */
async function benchPublishing(
  payload: Payload,
  base: string,
  asAdmin: Record<string, string>,
  past: string,
  idle: () => Promise<void>,
): Promise<string[][]> {
  const rows: string[][] = [['publish', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'SQL', 'CPU ms/req']]
  const publish = (id: string) => ({
    method: 'PATCH',
    path: `/_api/component/html_contents/${id}`,
    headers: { ...asAdmin, 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ publishedAt: past }),
  })
  for (const variant of ['new draft', 'draft of a published record'] as const) {
    await idle()
    const firstDraft = await freshDraft(payload, variant, 0)
    const one = publish(firstDraft)
    const { result, queries } = await logQueries(async () => {
      const response = await fetch(`${base}${one.path}`, { method: one.method, headers: one.headers, body: one.body })
      return {
        status: response.status,
        body: (await response.json()) as { _metadata?: { publishable?: { published?: boolean } } },
      }
    })
    if (result.status !== 200 || result.body._metadata?.publishable?.published !== true)
      throw new Error(`publish (${variant}) answered ${result.status}`)
    // A draft with a twin hands its content over and goes.
    const draftLeft = (await payload.count({ collection: 'html_contents', where: { id: { equals: firstDraft } } }))
      .totalDocs
    if (draftLeft !== (variant === 'new draft' ? 1 : 0))
      throw new Error(`publish (${variant}): the draft is ${draftLeft ? 'still there' : 'gone'}`)
    if (process.env.BENCH_SQL)
      console.log(
        `publish ${variant}`,
        queries.map((q) => `${q.ms.toFixed(1)} ms  ${q.text.slice(0, 160)}`),
      )
    for (const connections of [1, ...CONNECTIONS]) {
      const drafts: string[] = []
      for (let i = 0; i < Math.max(PUBLICATIONS, connections); i++)
        drafts.push(await freshDraft(payload, variant, i + 1))
      await idle()
      const run = await runLoad({
        url: base,
        connections,
        amount: drafts.length,
        requests: drafts.map(publish),
        label: `publish ${variant} ${connections}`,
      })
      rows.push([
        `a ${variant}`,
        String(connections),
        run.rps.toFixed(0),
        String(run.p50),
        String(run.p99),
        String(queries.length),
        run.cpuMs.toFixed(2),
      ])
    }
  }
  return rows
}

/** A draft to publish: a new one, or the pending edit of a published record (its twin). */
async function freshDraft(
  payload: Payload,
  variant: 'new draft' | 'draft of a published record',
  i: number,
): Promise<string> {
  let publishedResource: string | undefined
  if (variant !== 'new draft') {
    const live = await payload.create({
      collection: 'html_contents',
      data: { html: `<p>Live ${i}</p>`, publishedAt: new Date(Date.now() - 60_000).toISOString() } as never,
      depth: 0,
    })
    publishedResource = String(live.id)
  }
  // Only the service links twins: the context lets this create keep its link (without it the draft would have no twin).
  const draft = await payload.create({
    collection: 'html_contents',
    data: { html: `<p>Draft ${i}</p>`, publishedResource } as never,
    context: { [PUBLISHABLE_TWIN_LINK]: true },
    depth: 0,
  })
  if (publishedResource && String((draft as { publishedResource?: unknown }).publishedResource) !== publishedResource)
    throw new Error('bench: the draft was not linked to its published twin')
  return String(draft.id)
}
