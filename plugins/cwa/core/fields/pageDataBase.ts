import type { Field } from 'payload'
import type { CoreContext } from '../context.js'
import { parentFields } from './parent.js'
import { routeJoinField } from './route.js'

/** Fields every page data type shares (the contract's PageData base). */
export function pageDataBaseFields(ctx: CoreContext): Field[] {
  return [
    { name: 'title', type: 'text', required: true },
    { name: 'metaDescription', type: 'textarea' },
    {
      name: 'page',
      type: 'relationship',
      relationTo: 'pages',
      required: true,
      admin: { description: 'The template Page this record renders through.' },
    },
    routeJoinField('pageData'),
    ...parentFields(ctx),
  ]
}
