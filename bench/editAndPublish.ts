import { logQueries, type LoggedQuery } from './sqlLog'

/**
 * An edit of a published component and the publication of its draft,
 * through the JSON-LD API as an editor makes them, with the statements the
 * server ran meanwhile (nothing else may query then).
 */
export async function editAndPublish(
  base: string,
  asAdmin: Record<string, string>,
  component: string,
): Promise<LoggedQuery[]> {
  const json = { ...asAdmin, 'content-type': 'application/merge-patch+json' }
  const { queries } = await logQueries(async () => {
    const draft = await fetch(`${base}${component}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ html: `<p>Bench write ${Date.now()}</p>` }),
    })
    const { '@id': draftIri } = (await draft.json()) as { '@id': string }
    const published = await fetch(`${base}${draftIri}`, {
      method: 'PATCH',
      headers: json,
      body: JSON.stringify({ publishedAt: new Date(Date.now() - 60_000).toISOString() }),
    })
    await published.arrayBuffer()
    if (published.status !== 200) throw new Error(`publishing ${draftIri} answered ${published.status}`)
  })
  return queries
}
