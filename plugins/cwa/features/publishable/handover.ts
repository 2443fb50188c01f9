import type { PayloadRequest } from 'payload'

/**
 * Drafts deleted by a publication that hands their content to their
 * published twin, by request. Everything such a draft owned (its component
 * groups, the components of its page data properties) goes to the twin with
 * the content, and its references were moved before: the delete removes the
 * draft row and nothing else, so other features' delete cascades leave it
 * alone.
 */
const handovers = new WeakMap<object, Set<string>>()

const key = (slug: string, id: string) => `${slug}:${id}`

export function markHandover(req: PayloadRequest, slug: string, id: string): void {
  let set = handovers.get(req)
  if (!set) handovers.set(req, (set = new Set()))
  set.add(key(slug, id))
}

/** Whether deleting this record is a publication's handover of a draft to its twin (in this request). */
export const isHandover = (req: PayloadRequest, slug: string, id: string): boolean =>
  handovers.get(req)?.has(key(slug, id)) ?? false
