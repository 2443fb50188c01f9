/**
 * Draft/publish twins for components and page data: `publishable: true` (or
 * options) on defineComponent / definePageData switches it on.
 */
import type { CwaFeature } from '../../hydra/feature'
import { applyPublishable } from './config'
import { publishableExtension } from './extension'
import { installPublishableCounts } from './counts'

export { applyPublishable, publishableOf } from './config'
export { publishableExtension } from './extension'
export type { PublishableOptions, PublishViolation, ResolvedPublishable } from './options'
export { isPublished, publicationState, publishedWhere } from './state'
export { nextScheduledPublication, soonestScheduledPublication } from './schedule'
export { publishDueRecords } from './goLive'
export { draftTakesOver } from './takeOver'
export { isHandover } from './handover'
/** Request context key that lets a trusted write set a draft's twin link (the generated fixtures recreate drafts with it). */
export { TWIN_LINK as PUBLISHABLE_TWIN_LINK } from './fields'

export const publishableFeature: CwaFeature = {
  name: 'publishable',
  completeCollection: applyPublishable,
  extension: publishableExtension,
  onSchemaReady: installPublishableCounts,
}
