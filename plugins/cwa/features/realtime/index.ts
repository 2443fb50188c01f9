/**
 * Real-time updates: every change of a type declared with `mercure: true`
 * (alias `realtime: true`) and of the core resources is published to a
 * Mercure hub after its commit ([real-time](../../../../docs/realtime.md)).
 * A subscriber of the write-event bus (core/events).
 */
import type { WriteListener } from '../../core/events/index.js'
import type { CwaFeature } from '../../hydra/feature.js'
import { realtimeExtension } from './extension.js'
import { realtimeOptions } from './options.js'
import { publishUpdates } from './publisher.js'
import { publishTarget } from './target.js'
import { updatesFor } from './updates.js'

export type { ResolvedMercure } from './options.js'
export { realtimeIdle } from './publisher.js'
export { isRealtime } from './updates.js'
export { embeddedHubMiddleware, HUB_PATH } from './hub/embedded.js'

/** Builds the updates of a committed transaction (reads, awaited) and sends them in the background. */
const publishChanges: WriteListener = async (events, { payload, req }) => {
  // The hub at mercure.url, else the embedded hub once started; neither: publishing is off.
  const target = publishTarget(payload)
  if (!target) return
  void publishUpdates(payload, await updatesFor(payload, req, events), target)
}

export const realtimeFeature = {
  name: 'realtime',
  // Write listeners run in turn, each awaited: its updates go out once the shared cache is purged, so a subscriber
  // that reads again on an update never gets the cached copy.
  after: ['httpCache'],
  options: realtimeOptions,
  extension: realtimeExtension,
  onWrite: publishChanges,
} satisfies CwaFeature
