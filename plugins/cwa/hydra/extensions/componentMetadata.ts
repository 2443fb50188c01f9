import type { HydraExtension } from '../extension'

/**
 * Every component carries `_metadata`: computed at serialization, never
 * stored. Plugins fill it (publishable, mediaObjects, violations).
 */
export const componentMetadata: HydraExtension = {
  name: 'component-metadata',
  normalizeItem(item, _doc, resource) {
    if (resource.meta.kind === 'component') item._metadata = { ...((item._metadata as object) ?? {}) }
  },
}
