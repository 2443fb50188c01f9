import type { CollectionConfig } from 'payload'
import { contentAccess } from '../access.js'
import { type CoreContext, tableName } from '../context.js'
import { parentFields, singleParentHook } from '../fields/parent.js'
import { routeJoinField } from '../fields/route.js'
import type { CwaResourceMeta } from '../types.js'

/** Individual pages (or templates for page data) with component groups. */
export function pagesCollection(ctx: CoreContext): CollectionConfig {
  const cwa: CwaResourceMeta = {
    kind: 'core',
    shortName: 'Page',
    pathPrefix: '/_',
    segment: 'pages',
    showCreatedAt: true,
    search: ['title', 'reference', 'uiComponent'],
    order: ['createdAt', 'reference'],
    booleanFilters: ['isTemplate'],
  }
  return {
    slug: 'pages',
    dbName: tableName(ctx, 'pages'),
    admin: { useAsTitle: 'reference', group: 'Structure', defaultColumns: ['reference', 'title', 'isTemplate', 'layout'] },
    access: contentAccess(ctx.options),
    fields: [
      { name: 'title', type: 'text' },
      { name: 'metaDescription', type: 'textarea' },
      { name: 'reference', type: 'text', required: true, unique: true },
      { name: 'uiComponent', type: 'text' },
      { name: 'uiClassNames', type: 'text', hasMany: true },
      { name: 'isTemplate', type: 'checkbox', defaultValue: false, required: true },
      { name: 'layout', type: 'relationship', relationTo: 'layouts', required: true },
      ...parentFields(ctx),
      routeJoinField(),
      { name: 'componentGroups', type: 'relationship', relationTo: 'component_groups', hasMany: true },
    ],
    hooks: { beforeValidate: [singleParentHook()] },
    custom: { cwa },
  }
}
