/**
 * The publication state of a record as the admin panel shows it (badges,
 * actions): the contract's states, with a live record's pending draft.
 * Plain data only: shared by the list cell and the edit view's panel.
 */
export type AdminPublication = 'draft' | 'scheduled' | 'live' | 'live-with-draft'

type Doc = Record<string, unknown>

const idOf = (value: unknown): string | null => {
  if (value == null || value === '') return null
  if (typeof value === 'object')
    return idOf((value as { id?: unknown; value?: unknown }).id ?? (value as { value?: unknown }).value)
  return String(value)
}

/** The id of the draft of a published record, from its `draftResource` join. */
export function pendingDraftOf(doc: Doc, draftField = 'draftResource'): string | null {
  const join = doc[draftField] as { docs?: unknown[] } | unknown[] | null | undefined
  const docs = Array.isArray(join) ? join : join?.docs
  return docs && docs.length > 0 ? idOf(docs[0]) : null
}

export interface PublicationInfo {
  state: AdminPublication
  /** On a draft with a twin: the live record it will replace. */
  publishedId: string | null
  /** On a live record: its pending draft. */
  draftId: string | null
  publishedAt: string | null
}

export function publicationOf(
  doc: Doc,
  fields = { publishedAt: 'publishedAt', publishedResource: 'publishedResource', draftResource: 'draftResource' },
  now = new Date(),
): PublicationInfo {
  const raw = doc[fields.publishedAt]
  const publishedAt = raw ? new Date(raw as string).toISOString() : null
  const publishedId = idOf(doc[fields.publishedResource])
  const draftId = pendingDraftOf(doc, fields.draftResource)
  let state: AdminPublication
  if (publishedAt && new Date(publishedAt) > now) state = 'scheduled'
  else if (!publishedAt || publishedId) state = 'draft'
  else state = draftId ? 'live-with-draft' : 'live'
  return { state, publishedId, draftId, publishedAt }
}
