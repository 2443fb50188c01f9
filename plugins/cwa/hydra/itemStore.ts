import type { PaginatedDocs, Where } from 'payload'
import type { CollectionQuery } from './filters.js'

export type Doc = Record<string, unknown>

/**
 * How the JSON-LD operations read and write one resource. The default goes
 * straight to Payload's Local API with the caller's access; a behaviour such
 * as publishable supplies its own (draft routing, twins) through an extension.
 */
export interface ItemStore {
  /** A page of records. `count: false`: the caller knows the total, so `totalDocs` and the paging fields need not be counted. */
  list(query: CollectionQuery, options?: { count?: boolean }): Promise<PaginatedDocs<Doc>>
  /** The record an item IRI resolves to for this caller, or null (404). `where` holds the resource's filters. */
  load(id: string, where: Where[]): Promise<Doc | null>
  create(data: Doc): Promise<Doc>
  update(id: string, data: Doc): Promise<Doc>
  remove(id: string): Promise<void>
}
