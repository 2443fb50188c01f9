import type { Payload, PayloadRequest } from 'payload'
import { getRegistry } from '../registry.js'
import { afterCommit, beforeCommit } from '../transactions/index.js'
import { mergeTypes, recordKey } from './merge.js'
import type { WriteEvent, WriteEventType, WriteListener } from './types.js'

/**
 * The write-event bus: feature-blind, one event per changed record, queued
 * in the transaction of the request that changed it and dispatched once
 * that transaction has committed (never for one that was rolled back).
 */

/** Listeners of every Payload instance in the process (tests, plugin code). */
const globalListeners = new Set<WriteListener>()

/** Subscribes to the write events of every Payload instance; returns the unsubscribe function. */
export function onWriteEvent(listener: WriteListener): () => void {
  globalListeners.add(listener)
  return () => globalListeners.delete(listener)
}

/** Listeners stored on the config by cwaPlugin (each feature's `onWrite`), so they follow that instance only. */
function configListeners(payload: Payload): readonly WriteListener[] {
  return (
    (payload.config.custom as { cwa?: { writeListeners?: WriteListener[] } } | undefined)?.cwa?.writeListeners ?? []
  )
}

/**
 * Listeners that must act in the writing transaction itself, just before it
 * commits (each feature's `onCommitting`, stored on the config): what they
 * write commits or rolls back with the write, and a listener that throws
 * rolls the write back.
 */
function committingListeners(payload: Payload): readonly WriteListener[] {
  return (
    (payload.config.custom as { cwa?: { committingListeners?: WriteListener[] } } | undefined)?.cwa
      ?.committingListeners ?? []
  )
}

async function runCommitting(events: readonly WriteEvent[], req: PayloadRequest): Promise<void> {
  if (events.length === 0) return
  for (const listener of committingListeners(req.payload)) await listener(events, { payload: req.payload, req })
}

/** The events held back on a request, for the transaction they were queued in. */
interface Queue {
  transactionID: unknown
  events: Map<string, WriteEvent>
  /** The committing listeners have seen these events (a later event is handed to them again, alone). */
  seenBeforeCommit?: boolean
}
const pending = new WeakMap<PayloadRequest, Queue>()

/** Committed writes per Payload instance, counted before their listeners run (writeGeneration). */
const generations = new WeakMap<Payload, number>()

/**
 * A number that changes whenever a write has committed in this process (any
 * API): a value derived from the database and kept between requests is
 * stale once it differs from the one seen when the value was read.
 */
export function writeGeneration(payload: Payload): number {
  return generations.get(payload) ?? 0
}

async function dispatch(events: readonly WriteEvent[], req: PayloadRequest): Promise<void> {
  if (events.length === 0) return
  const payload = req.payload
  generations.set(payload, writeGeneration(payload) + 1)
  for (const listener of [...configListeners(payload), ...globalListeners]) {
    try {
      await listener(events, { payload, req })
    } catch (error) {
      // The write is committed: a failing subscriber must not turn it into an error response.
      payload.logger.error(
        { err: error, events: events.map(({ type, iri }) => ({ type, iri })) },
        'write event listener failed',
      )
    }
  }
}

export interface WriteEventInput {
  type: WriteEventType
  collection: string
  id: string | number
  doc?: Record<string, unknown>
  previousDoc?: Record<string, unknown>
}

/**
 * Records that a record changed. Inside a transaction the event joins the
 * transaction's queue (merged with earlier changes of the same record, see
 * merge.ts) and goes out after the commit; without one it goes out at
 * once. A collection that is not an API resource emits nothing.
 */
export async function emitWriteEvent(req: PayloadRequest, input: WriteEventInput): Promise<void> {
  const resource = getRegistry(req.payload.config).bySlug(input.collection)
  if (!resource) return
  const id = String(input.id)
  const event: WriteEvent = {
    type: input.type,
    collection: input.collection,
    id,
    iri: getRegistry(req.payload.config).itemIri(resource, id),
    ...(input.doc ? { doc: input.doc } : {}),
    ...(input.previousDoc ? { previousDoc: input.previousDoc } : {}),
  }
  const transactionID = await req.transactionID
  if (transactionID === undefined || transactionID === null || transactionID === '') {
    await runCommitting([event], req)
    await dispatch([event], req)
    return
  }
  const queue = pending.get(req)
  if (queue && queue.transactionID === transactionID) {
    merge(queue, event)
    // Written by before-commit work that ran after the committing listeners (they run again for it).
    if (queue.seenBeforeCommit)
      await beforeCommitting(req, { transactionID, events: new Map([[recordKey(event), event]]) })
    return
  }
  const fresh: Queue = { transactionID, events: new Map([[recordKey(event), event]]) }
  pending.set(req, fresh)
  await beforeCommitting(req, fresh)
  // Runs at once when the adapter has no such open transaction (its writes are committed already).
  await afterCommit(req, async () => {
    if (pending.get(req) === fresh) pending.delete(req)
    await dispatch([...fresh.events.values()], req)
  })
}

/** Hands the queue's events to the committing listeners in the transaction, once it has made all its changes. */
async function beforeCommitting(req: PayloadRequest, queue: Queue): Promise<void> {
  if (committingListeners(req.payload).length === 0) return
  await beforeCommit(req, 'cwa:committing-write-events', queue, async (queues) => {
    for (const each of queues) each.seenBeforeCommit = true
    await runCommitting(
      queues.flatMap((each) => [...each.events.values()]),
      req,
    )
  })
}

/** Adds an event to a queue: a record already in it keeps one event and its first position. */
function merge(queue: Queue, event: WriteEvent): void {
  const key = recordKey(event)
  const earlier = queue.events.get(key)
  if (!earlier) {
    queue.events.set(key, event)
    return
  }
  const type = mergeTypes(earlier.type, event.type)
  if (type === null) queue.events.delete(key)
  // The latest state, and the state before the first change (a previous doc seen first is kept).
  else
    queue.events.set(key, {
      ...earlier,
      type,
      ...(event.doc ? { doc: event.doc } : {}),
      ...(!earlier.previousDoc && event.previousDoc ? { previousDoc: event.previousDoc } : {}),
    })
}
