import type { HydraExtension } from '../extension.js'

/**
 * Every resource carries `_metadata` (routes, pages, layouts, groups,
 * positions, page data, users, components): computed at serialization,
 * never stored. `persisted: true` says the record exists in the database (a
 * front end tells saved resources from ones it is still composing by it);
 * plugins add their entries (publishable, mediaObjects, violations).
 */
export const componentMetadata: HydraExtension = {
  name: 'resource-metadata',
  normalizeItem(item) {
    item._metadata = { persisted: true, ...((item._metadata as object) ?? {}) }
  },
}
