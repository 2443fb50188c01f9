import type { WriteEvent, WriteEventType } from './types.js'

/**
 * What several changes of one record in one transaction amount to, so that
 * each changed record gives exactly one event:
 * - created, then changed: `create` (a `publish` of a record created in the same transaction stays `publish`);
 * - a publication wins over updates (the publish transition writes the record too);
 * - deleted: `delete`, unless it was created in the same transaction (then it never existed for anyone else: null).
 */
export function mergeTypes(first: WriteEventType, next: WriteEventType): WriteEventType | null {
  if (next === 'delete') return first === 'create' ? null : 'delete'
  if (first === 'delete') return next === 'create' ? 'update' : 'delete'
  if (next === 'publish' || first === 'publish') return 'publish'
  // A hook of the record's own write may report a side change (a stored date) before the write itself.
  if (next === 'create' || first === 'create') return 'create'
  return 'update'
}

/** Key of a record in a transaction's queue. */
export const recordKey = (event: Pick<WriteEvent, 'collection' | 'id'>) => `${event.collection}\u0000${event.id}`
