import type { CollectionConfig, CollectionSlug, Field } from 'payload'
import { contentAccess } from '../access.js'
import { type CoreContext, tableName } from '../context.js'
import type { CwaResourceMeta } from '../types.js'
import { positionRulesHook } from '../hooks/positionRules.js'

/** An ordered slot in a group: a component, or a binding to a page data property. */
export function componentPositionsCollection(ctx: CoreContext): CollectionConfig {
  const cwa: CwaResourceMeta = {
    kind: 'core',
    shortName: 'ComponentPosition',
    pathPrefix: '/_',
    segment: 'component_positions',
    showCreatedAt: true,
    order: ['createdAt', 'sortValue'],
    defaultOrder: { sortValue: 'asc' },
  }
  const component: Field[] =
    ctx.componentSlugs.length > 0
      ? [
          {
            name: 'component',
            type: 'relationship',
            relationTo: ctx.componentSlugs as CollectionSlug[],
            index: true,
            // The contract allows a position without a component (dynamic: bound to a page data property; else orphaned).
            admin: { description: 'Leave empty only for a dynamic position (page data class and property below): a position with neither shows nothing and is orphaned.' },
          },
        ]
      : []
  return {
    slug: 'component_positions',
    dbName: tableName(ctx, 'component_positions'),
    admin: { group: 'Structure', defaultColumns: ['componentGroup', 'component', 'sortValue'] },
    access: contentAccess(ctx.options),
    fields: [
      { name: 'componentGroup', type: 'relationship', relationTo: 'component_groups', required: true, index: true },
      ...component,
      { name: 'sortValue', type: 'number', defaultValue: 0, required: true },
      { name: 'pageDataClass', type: 'text', admin: { description: 'Page data short name, e.g. BlogArticleData' } },
      { name: 'pageDataProperty', type: 'text', admin: { description: 'Component-typed property of that page data' } },
    ],
    hooks: { beforeValidate: [positionRulesHook(ctx)] },
    custom: { cwa },
  }
}
