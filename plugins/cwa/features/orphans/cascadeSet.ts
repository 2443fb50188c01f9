/** The records a cascade takes, by collection slug. */

/** A record by collection slug and id. */
export interface RecordRef {
  slug: string
  id: string
}

/** What a cascade takes, by collection slug (the roots included). */
export type DeleteSet = Map<string, Set<string>>

export function addTo(set: DeleteSet, slug: string, recordId: string): boolean {
  let ids = set.get(slug)
  if (!ids) set.set(slug, (ids = new Set()))
  if (ids.has(recordId)) return false
  ids.add(recordId)
  return true
}

export const has = (set: DeleteSet, slug: string, recordId: string): boolean => set.get(slug)?.has(recordId) ?? false
export const idsOf = (set: DeleteSet, slug: string): string[] => [...(set.get(slug) ?? [])]
