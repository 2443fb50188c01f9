import type { CollectionConfig } from 'payload'
import { ADMIN_COMPONENTS } from '../../core/adminComponents.js'
import type { ResolvedCwaOptions } from '../../core/options.js'
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

/** The orphan report, an admin view at /admin/cwa/orphaned (admin/OrphansView.tsx; the alert e-mail's button lands there). */
export const orphansView = (options: ResolvedCwaOptions) => ({
  views: {
    cwaOrphans: {
      Component: { path: `${ADMIN_COMPONENTS}#OrphansView`, clientProps: { apiPrefix: options.apiPrefix } },
      path: '/cwa/orphaned' as const,
      exact: true,
    },
  },
})
