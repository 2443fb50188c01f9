/** The collection feature's share of the package's front door (index.ts re-exports it): its options' types. */
// Its options (added to CwaPluginOptions by declaration merging), so an app type-checks them.
export type {} from './options.js'
