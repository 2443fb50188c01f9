import type { CollectionConfig } from 'payload'
import { getCwaMeta } from '../../core/types.js'
import { cascadeBeforeDelete } from './hooks.js'

const CASCADING_CORE = new Set(['component_groups', 'layouts', 'pages'])

/**
 * Adds the delete cascade (hooks.ts) to groups, layouts, pages, every
 * component type and every page data type, so it holds on every API.
 * It runs first among the delete hooks: what the record takes goes before
 * any other hook looks at it.
 */
export function applyCascade(collection: CollectionConfig): CollectionConfig {
  const kind = getCwaMeta(collection)?.kind
  const cascades =
    kind === 'component' || kind === 'pageData' || (kind === 'core' && CASCADING_CORE.has(collection.slug))
  if (!cascades) return collection
  const hooks = collection.hooks ?? {}
  return {
    ...collection,
    hooks: {
      ...hooks,
      beforeDelete: [
        cascadeBeforeDelete(collection.slug, kind === 'component' ? 'component' : 'other'),
        ...(hooks.beforeDelete ?? []),
      ],
    },
  }
}
