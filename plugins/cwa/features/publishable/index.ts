/**
 * Draft/publish twins for components and page data: `publishable: true` (or
 * options) on defineComponent / definePageData switches it on.
 */
export { applyPublishable, publishableOf } from './config'
export { publishableExtension } from './extension'
export type { PublishableOptions, PublishViolation, ResolvedPublishable } from './options'
export { onPublishEvent, type PublishEvent, type PublishListener } from './stateMachine'
export { isPublished, publicationState, publishedWhere } from './state'
