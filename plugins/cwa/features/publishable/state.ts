import type { Where } from 'payload'
import { relationId } from '../../core/utils/relations.js'
import type { ResolvedPublishable } from './options.js'

type Doc = Record<string, unknown>

/**
 * States of a publishable record (contract: "States and transitions"):
 * - draft: publishedAt null, or a twin of a published record;
 * - scheduled: publishedAt in the future;
 * - published: publishedAt now or past, and not a twin.
 */
export type PublicationState = 'draft' | 'scheduled' | 'published'

export function publicationState(doc: Doc, names: ResolvedPublishable, now = new Date()): PublicationState {
  const at = doc[names.publishedAt] ? new Date(doc[names.publishedAt] as string) : null
  if (at && at > now) return 'scheduled'
  if (!at || relationId(doc[names.publishedResource])) return 'draft'
  return 'published'
}

export const isPublished = (doc: Doc, names: ResolvedPublishable, now = new Date()) =>
  publicationState(doc, names, now) === 'published'

/** Id of the published twin of a draft, if any. */
export const twinOf = (doc: Doc, names: ResolvedPublishable) => relationId(doc[names.publishedResource])

/** Id of the draft of a published record (from the join), if any. */
export function draftOf(doc: Doc, names: ResolvedPublishable): string | null {
  const join = doc[names.draftResource] as { docs?: unknown[] } | undefined
  return relationId(join?.docs?.[0])
}

/** The Where that keeps only live published records: what callers without the permission may read. */
export function publishedWhere(names: ResolvedPublishable, now = new Date()): Where {
  return {
    and: [
      { [names.publishedAt]: { less_than_equal: now.toISOString() } },
      { [names.publishedResource]: { exists: false } },
    ],
  }
}
