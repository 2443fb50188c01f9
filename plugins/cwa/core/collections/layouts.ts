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
    labels: { singular: 'Layout', plural: 'Layouts' },
    admin: {
      useAsTitle: 'reference',
      group: 'Site structure',
      description:
        'The frame shared by pages: header, navigation, footer. Its groups of blocks appear on every page that uses it.',
      defaultColumns: ['reference', 'updatedAt'],
    },
    access: contentAccess(ctx.options),
    fields: [
      {
        name: 'reference',
        type: 'text',
        label: 'Reference',
        required: true,
        unique: true,
        admin: { description: 'A unique name for this layout, e.g. primary.' },
      },
      {
        name: 'uiComponent',
        type: 'text',
        label: 'Front-end layout',
        admin: { description: 'The front end component that renders this layout, e.g. PrimaryLayout.' },
      },
      { name: 'uiClassNames', type: 'text', hasMany: true, label: 'CSS classes' },
      {
        name: 'componentGroups',
        type: 'relationship',
        relationTo: 'component_groups',
        hasMany: true,
        label: 'Groups',
        admin: { description: "The layout's groups of blocks, in order (the page builder edits them)." },
      },
    ],
    custom: { cwa },
  }
}
