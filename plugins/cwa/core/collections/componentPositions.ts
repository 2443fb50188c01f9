import type { CollectionConfig, CollectionSlug, Field } from 'payload'
import { contentAccess } from '../access.js'
import { type CoreContext, tableName } from '../context.js'
import type { CwaResourceMeta } from '../types.js'
import { positionRulesHook } from '../hooks/positionRules.js'
import { positionOrderBeforeChange, positionOrderBeforeOperation, sortValueOnCreate } from '../hooks/positionOrder.js'

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
            label: 'Block',
            // The contract allows a position without a component (dynamic: bound to a page data property; else orphaned).
            admin: {
              description:
                'The block shown here. Leave empty only for a position bound to a page data property (below): a position with neither shows nothing and is orphaned.',
            },
          },
        ]
      : []
  return {
    slug: 'component_positions',
    dbName: tableName(ctx, 'component_positions'),
    labels: { singular: 'Component position', plural: 'Component positions' },
    // Out of the navigation (group: false; the page builder reaches them), still at /admin/collections/component_positions.
    admin: {
      group: false,
      description: "A block's place in a group. The page builder adds, orders and removes them.",
      defaultColumns: ['sortValue', 'updatedAt'],
    },
    access: contentAccess(ctx.options),
    fields: [
      {
        name: 'componentGroup',
        type: 'relationship',
        relationTo: 'component_groups',
        required: true,
        index: true,
        label: 'Group',
      },
      ...component,
      {
        name: 'sortValue',
        type: 'number',
        defaultValue: 0,
        required: true,
        label: 'Order',
        admin: {
          description:
            'Lower comes first; each block of a group has its own. A taken value moves the block there and shifts the others.',
        },
        // Without a value a new block goes after the last (hooks/positionOrder.ts).
        hooks: { beforeValidate: [sortValueOnCreate] },
      },
      {
        name: 'pageDataClass',
        type: 'text',
        label: 'Page data type',
        admin: {
          description: 'For a template: the page data type whose property fills this position, e.g. BlogArticleData.',
        },
      },
      {
        name: 'pageDataProperty',
        type: 'text',
        label: 'Page data property',
        admin: { description: 'The property of that type holding the block, e.g. htmlContent.' },
      },
    ],
    hooks: {
      beforeOperation: [positionOrderBeforeOperation(ctx)],
      beforeValidate: [positionRulesHook(ctx)],
      beforeChange: [positionOrderBeforeChange(ctx)],
    },
    custom: { cwa },
  }
}
