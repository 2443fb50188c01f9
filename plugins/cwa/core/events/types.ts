import type { Payload, PayloadRequest } from 'payload'

/**
 * What happened to one record:
 * - `create`, `update`, `delete`: the record was written (any API: JSON-LD, Payload REST, admin, Local API);
 * - `publish`: a draft became the published record, or its content replaced its published twin's.
 */
export type WriteEventType = 'create' | 'update' | 'delete' | 'publish'

/** One changed record of a committed transaction. */
export interface WriteEvent {
  type: WriteEventType
  /** The collection slug. */
  collection: string
  id: string
  /** The record's IRI, API prefix included (`/_api/component/html_contents/<id>`). */
  iri: string
  /**
   * The record as last written in the transaction (depth 0), as it was just
   * before a delete; absent for changes made in SQL (the record is then
   * read again by whoever needs it).
   */
  doc?: Record<string, unknown>
}

/** What a listener is given besides the events: the Payload instance, and the request that committed them. */
export interface WriteEventSource {
  payload: Payload
  req: PayloadRequest
}

/**
 * Receives the events of one committed transaction, in the order their
 * records were first changed. Runs after the commit: a listener that throws
 * is logged and never turns the committed write into an error.
 */
export type WriteListener = (events: readonly WriteEvent[], source: WriteEventSource) => void | Promise<void>
