/** payload-cwa/client: the JSON-LD API from any JavaScript runtime (no framework, no dependency). */
export { type CwaClient, createCwaClient, type SubmitOptions } from './client.js'
export { type CwaPageResult, type CwaResolvedPage, type PageOptions } from './page.js'
export type { CwaError, CwaResult } from './result.js'
export { blocksOf, type CwaBlock, groupOf, groupsOf } from './structure.js'
export {
  type CwaUpdate,
  type EventSourceConstructor,
  subscribe,
  type SubscribeOptions,
  updateTouches,
} from './subscribe.js'
export type { CwaClientOptions } from './transport.js'
export type {
  CwaCollection,
  CwaComponent,
  CwaComponentGroup,
  CwaComponentPosition,
  CwaLayout,
  CwaMediaObject,
  CwaPage,
  CwaPageData,
  CwaResource,
  CwaRoute,
  CwaViolation,
} from './types.js'
