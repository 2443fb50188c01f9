import { afterAll, beforeAll, beforeEach } from '@jest/globals'
import { onWriteEvent, type WriteEvent } from 'payload-cwa'

/** One recorded event, with the batch (committed transaction) it came in and whether its record was committed then. */
export interface Recorded extends WriteEvent {
  batch: number
}

/**
 * Records the write events of a test file: subscribed for the whole file,
 * emptied before each test (`events.length = 0` empties it mid-test).
 */
export function recordWriteEvents(): Recorded[] {
  const events: Recorded[] = []
  let batch = 0
  let unsubscribe: (() => void) | undefined
  beforeAll(() => {
    unsubscribe = onWriteEvent((committed) => {
      batch += 1
      for (const event of committed) events.push({ ...event, batch })
    })
  })
  afterAll(() => unsubscribe?.())
  beforeEach(() => {
    events.length = 0
  })
  return events
}

/** The events as `type iri` lines, sorted: easy to compare whole. */
export const summary = (events: readonly WriteEvent[]) => events.map((e) => `${e.type} ${e.iri}`).sort()
