import type { Field } from 'payload'
import type { CoreContext } from '../context.js'
import { parentFields } from './parent.js'
import { routeJoinField } from './route.js'

/** Fields every page data type shares (the contract's PageData base). */
export function pageDataBaseFields(ctx: CoreContext): Field[] {
  return [
    { name: 'title', type: 'text', required: true, label: 'Title' },
    { name: 'metaDescription', type: 'textarea', label: 'Description for search engines' },
    {
      name: 'page',
      type: 'relationship',
      relationTo: 'pages',
      required: true,
      label: 'Template page',
      admin: { description: 'The template page that lays this record out.' },
    },
    routeJoinField('pageData'),
    ...parentFields(ctx),
  ]
}
