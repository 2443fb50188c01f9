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
    labels: { singular: 'Page', plural: 'Pages' },
    admin: {
      useAsTitle: 'reference',
      group: 'Pages and content',
      description: 'Each page has a layout around it and groups of blocks, edited in the page builder below the title.',
      defaultColumns: ['reference', 'title', 'layout', 'updatedAt'],
    },
    access: contentAccess(ctx.options),
    fields: [
      { name: 'title', type: 'text', label: 'Title' },
      { name: 'metaDescription', type: 'textarea', label: 'Description for search engines' },
      {
        name: 'reference',
        type: 'text',
        label: 'Reference',
        required: true,
        unique: true,
        admin: {
          position: 'sidebar',
          description:
            'A unique name for this page, e.g. about-us (letters, digits, - and _). Developers and the API find the page by it.',
        },
      },
      {
        name: 'uiComponent',
        type: 'text',
        label: 'Front-end template',
        admin: { description: 'The front end component that renders this page; empty: its default page template.' },
      },
      { name: 'uiClassNames', type: 'text', hasMany: true, label: 'CSS classes' },
      {
        name: 'isTemplate',
        type: 'checkbox',
        label: 'Template for page data',
        defaultValue: false,
        required: true,
        admin: { description: 'A template renders records such as blog articles; it has no route of its own.' },
      },
      {
        name: 'layout',
        type: 'relationship',
        relationTo: 'layouts',
        required: true,
        label: 'Layout',
        admin: { description: 'The frame around the page: header, navigation, footer.' },
      },
      ...parentFields(ctx),
      routeJoinField(),
      {
        name: 'componentGroups',
        type: 'relationship',
        relationTo: 'component_groups',
        hasMany: true,
        label: 'Groups',
        admin: { description: "The page's groups of blocks, in order (the page builder edits them)." },
      },
    ],
    hooks: { beforeValidate: [singleParentHook()] },
    custom: { cwa },
  }
}
