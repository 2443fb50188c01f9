/**
 * Draft/publish twins for components and page data: `publishable: true` (or
 * options) on defineComponent / definePageData switches it on.
 */
import type { CwaFeature } from '../../hydra/feature.js'
import { applyPublishable } from './config.js'
import { publishableExtension } from './extension.js'
import { installPublishableCounts } from './counts.js'
import { publishablePluginOptions } from './options.js'

export { applyPublishable, publishableOf } from './config.js'
export { publishableExtension } from './extension.js'
export type { PublishableOptions, PublishViolation, ResolvedPublishable } from './options.js'
export { isPublished, publicationState, publishedWhere } from './state.js'
export { nextScheduledPublication, soonestScheduledPublication } from './schedule.js'
export { publishDueRecords } from './goLive.js'
export { draftTakesOver } from './takeOver.js'
export { isHandover } from './handover.js'
/** The batch publish (all or nothing, one transaction) and its validation group, for the page builder's "Publish page". */
export { publishViolations } from './stateMachine.js'
export { publishMany } from './publishMany.js'
export { publishContext, readMode } from './store.js'
/** The pending drafts of a batch of records, in one query (the cwa-nuxt profile names them in positions). */
export { draftKey, pendingDrafts, type RecordRef } from './drafts.js'

export const publishableFeature = {
  name: 'publishable',
  options: publishablePluginOptions,
  completeCollection: applyPublishable,
  extension: publishableExtension,
  onSchemaReady: installPublishableCounts,
} satisfies CwaFeature
