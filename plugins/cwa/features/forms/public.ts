/** The forms feature's share of the package's front door (index.ts re-exports it). */
export { choice, custom, email, length, notBlank, range, regex } from './constraints.js'
export { defineFormType } from './types.js'
export type * from './types.js'
export { persistSubmission } from './persist.js'
export { type FormCachePurgeResult, purgeFormCache } from './cachePurge.js'
// Its options (added to CwaPluginOptions by declaration merging), so an app type-checks them.
export type { FormsOptions } from './options.js'
