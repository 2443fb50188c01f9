/**
 * Real-time updates: every change of a type declared with `mercure: true`
 * (alias `realtime: true`) and of the core resources is published to a
 * Mercure hub after its commit ([real-time](../../../../docs/realtime.md)).
 * A subscriber of the write-event bus (core/events).
 */
import type { WriteListener } from '../../core/events/index.js'
import { getOptions } from '../../core/registry.js'
import type { CwaFeature } from '../../hydra/feature.js'
import { realtimeExtension } from './extension.js'
import { publishUpdates } from './publisher.js'
import { updatesFor } from './updates.js'

export type { MercureOptions, ResolvedMercure } from './options.js'
export { realtimeIdle } from './publisher.js'
export { isRealtime } from './updates.js'

/** Builds the updates of a committed transaction (reads, awaited) and sends them in the background. */
const publishChanges: WriteListener = async (events, { payload, req }) => {
  const mercure = getOptions(payload.config).mercure
  if (!mercure.url) return
  void publishUpdates(payload, await updatesFor(payload, req, events), mercure)
}

export const realtimeFeature: CwaFeature = {
  name: 'realtime',
  extension: realtimeExtension,
  onWrite: publishChanges,
}
