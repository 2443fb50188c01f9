/**
 * What the dashboard's start panel lists (StartPanel.tsx renders it): the
 * pages edited last, pending drafts (publishable records in the draft state,
 * drafts of live records included) and scheduled publications, across every
 * publishable type, read with the editor's own access. Two queries per
 * publishable type and one for pages, whatever the number of records.
 */
import type { CollectionSlug, PayloadRequest } from 'payload'
import { getRegistry } from '../../../core/registry.js'
import { publishableOf } from '../../publishable/index.js'
import { describeDoc, type RecordRow } from '../../adminTitles/index.js'

type Doc = Record<string, unknown> & { id: string }

export interface StartItem extends Omit<RecordRow, 'doc'> {
  /** For a draft: it replaces a live version when published. For a scheduled record: when it goes live. */
  note: 'draft-of-live' | 'new' | null
  publishAt: string | null
}

export interface StartLists {
  recentPages: StartItem[]
  drafts: StartItem[]
  scheduled: StartItem[]
}

const LIMIT = 6

const item = (row: RecordRow, note: StartItem['note'] = null, publishAt: string | null = null): StartItem => {
  const { doc: _doc, ...rest } = row
  return { ...rest, note, publishAt }
}

export async function startLists(req: PayloadRequest, now = new Date()): Promise<StartLists> {
  const read = { depth: 0, limit: LIMIT, pagination: false, overrideAccess: false, user: req.user, req } as const
  const pages = await req.payload.find({ collection: 'pages', sort: '-updatedAt', ...read })
  const recentPages = (pages.docs as Doc[]).map((doc) => item(describeDoc(req, 'pages', doc)))
  const drafts: StartItem[] = []
  const scheduled: StartItem[] = []
  for (const resource of getRegistry(req.payload.config).all()) {
    const names = publishableOf(resource)
    if (!names) continue
    const collection = resource.slug as CollectionSlug
    const [pending, due] = await Promise.all([
      req.payload.find({ collection, where: { [names.publishedAt]: { exists: false } }, sort: '-updatedAt', ...read }),
      req.payload.find({
        collection,
        where: { [names.publishedAt]: { greater_than: now.toISOString() } },
        sort: names.publishedAt,
        ...read,
      }),
    ])
    for (const doc of pending.docs as Doc[])
      drafts.push(item(describeDoc(req, resource.slug, doc), doc[names.publishedResource] ? 'draft-of-live' : 'new'))
    for (const doc of due.docs as Doc[])
      scheduled.push(
        item(
          describeDoc(req, resource.slug, doc),
          doc[names.publishedResource] ? 'draft-of-live' : 'new',
          String(doc[names.publishedAt]),
        ),
      )
  }
  drafts.sort((a, b) => String(b.updatedAt).localeCompare(String(a.updatedAt)))
  scheduled.sort((a, b) => String(a.publishAt).localeCompare(String(b.publishAt)))
  return { recentPages, drafts: drafts.slice(0, LIMIT), scheduled: scheduled.slice(0, LIMIT) }
}
