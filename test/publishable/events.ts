import { afterAll, beforeAll, beforeEach } from '@jest/globals'
import { onPublishEvent, type PublishEvent } from '../../plugins/cwa/features/publishable'

/**
 * Records the publish events of a test file: subscribed for the whole file,
 * emptied before each test (`events.length = 0` empties it mid-test).
 */
export function recordPublishEvents(): PublishEvent[] {
  const events: PublishEvent[] = []
  let unsubscribe: (() => void) | undefined
  beforeAll(() => {
    unsubscribe = onPublishEvent((event) => {
      events.push(event)
    })
  })
  afterAll(() => unsubscribe?.())
  beforeEach(() => {
    events.length = 0
  })
  return events
}
