/** The real-time feature's share of the package's front door (index.ts re-exports it). */
export { closeEmbeddedHub, EmbeddedHubRefused, startEmbeddedHub } from './hub/embedded.js'
// Its options and its `mercure` declaration key (declaration merging), so an app type-checks them.
export type {} from './options.js'
