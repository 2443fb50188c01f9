/**
 * Write events: one per changed record of a committed transaction, on every
 * API. Cache purging and real-time publishing subscribe to them; code that
 * changes records in SQL (bypassing Payload's hooks) reports them with
 * emitWriteEvent.
 */
export { emitWriteEvent, onWriteEvent, writeGeneration, type WriteEventInput } from './bus.js'
export { withWriteEvents } from './hooks.js'
export type { WriteEvent, WriteEventSource, WriteEventType, WriteListener } from './types.js'
