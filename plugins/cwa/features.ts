/**
 * The features cwaPlugin assembles: one line each. Adding a feature is its
 * folder (its declaration in index.ts, its public.ts, its admin/ folder)
 * and its line here (docs/architecture.md, "Adding a feature").
 *
 * Their order is not this list's: each feature says in its declaration
 * which features it must come after, and why (`after`); orderFeatures
 * (hydra/feature.ts) orders them from that, and refuses an unknown name or
 * a cycle when the config is built. Between features that declare nothing
 * about each other this list's order is kept, so that the order of the
 * collections, the entrypoint and the OpenAPI document is the same on
 * every build.
 */
import { adminTitlesFeature } from './features/adminTitles/index.js'
import { adminFeature } from './features/admin/index.js'
import { collectionFeature } from './features/collectionComponent/index.js'
import { compatFeature } from './features/compat/index.js'
import { contentModelFeature } from './features/contentModel/index.js'
import { fixturesFeature } from './features/fixtures/index.js'
import { formsFeature } from './features/forms/index.js'
import { frontEndFeature } from './features/frontEnd/index.js'
import { goLiveFeature } from './features/goLive/index.js'
import { httpCacheFeature } from './features/httpCache/index.js'
import { orphansFeature } from './features/orphans/index.js'
import { publishableFeature } from './features/publishable/index.js'
import { readModelFeature } from './features/readModel/index.js'
import { realtimeFeature } from './features/realtime/index.js'
import { routesFeature } from './features/routes/index.js'
import { siteConfigFeature } from './features/siteConfig/index.js'
import { uploadsFeature } from './features/uploads/index.js'
import { usersFeature } from './features/users/index.js'
import { type CwaFeature, orderFeatures } from './hydra/feature.js'
import { sessionFeature } from './session/index.js'

const DECLARED = [
  contentModelFeature,
  usersFeature,
  sessionFeature,
  publishableFeature,
  uploadsFeature,
  routesFeature,
  formsFeature,
  collectionFeature,
  siteConfigFeature,
  frontEndFeature,
  compatFeature,
  orphansFeature,
  httpCacheFeature,
  readModelFeature,
  realtimeFeature,
  goLiveFeature,
  adminTitlesFeature,
  adminFeature,
  fixturesFeature,
] as const

/** Any of the declared features, with its declaration's own types (options.ts checks their option keys). */
export type DeclaredFeature = (typeof DECLARED)[number]

/**
 * The built-in features in the order their hooks run (each after what its
 * `after` names). An app's own features (the `features` option) join them
 * in options.ts (featuresOf).
 */
export const BUILT_IN_FEATURES: readonly CwaFeature[] = orderFeatures(DECLARED)
