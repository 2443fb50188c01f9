/** The publishable feature's share of the package's front door (index.ts re-exports it). */
export { publishableOf } from './config.js'
export { isPublished, publicationState } from './state.js'
/** Request context key that lets a trusted write set a draft's twin link (the generated fixtures recreate drafts with it). */
export { TWIN_LINK as PUBLISHABLE_TWIN_LINK } from './fields.js'
// Its options and its `publishable` declaration key (declaration merging), so an app type-checks them.
export type {} from './options.js'
export type {} from './config.js'
