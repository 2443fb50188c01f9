import type { CollectionConfig } from 'payload'
import { contentAccess } from '../access.js'
import { type CoreContext, tableName } from '../context.js'
import type { CwaResourceMeta } from '../types.js'

/** Outer page shell (header/footer groups). */
export function layoutsCollection(ctx: CoreContext): CollectionConfig {
  const cwa: CwaResourceMeta = {
    kind: 'core',
    shortName: 'Layout',
    pathPrefix: '/_',
    segment: 'layouts',
    showCreatedAt: true,
    search: ['reference', 'uiComponent'],
    order: ['createdAt', 'reference'],
  }
  return {
    slug: 'layouts',
    dbName: tableName(ctx, 'layouts'),
    admin: { useAsTitle: 'reference', group: 'Structure' },
    access: contentAccess(ctx.options),
    fields: [
      { name: 'reference', type: 'text', required: true, unique: true },
      { name: 'uiComponent', type: 'text' },
      { name: 'uiClassNames', type: 'text', hasMany: true },
      { name: 'componentGroups', type: 'relationship', relationTo: 'component_groups', hasMany: true },
    ],
    custom: { cwa },
  }
}
