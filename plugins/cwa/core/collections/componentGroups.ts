import type { CollectionConfig } from 'payload'
import { contentAccess } from '../access.js'
import { type CoreContext, tableName } from '../context.js'
import type { CwaResourceMeta } from '../types.js'
import { allowedComponentsHook } from '../hooks/allowedComponents.js'

/** A named region of a layout, page or component, holding ordered positions. */
export function componentGroupsCollection(ctx: CoreContext): CollectionConfig {
  const cwa: CwaResourceMeta = {
    kind: 'core',
    shortName: 'ComponentGroup',
    pathPrefix: '/_',
    segment: 'component_groups',
    showCreatedAt: true,
    order: ['createdAt', 'reference'],
    search: ['reference', 'location'],
  }
  return {
    slug: 'component_groups',
    dbName: tableName(ctx, 'component_groups'),
    admin: { useAsTitle: 'reference', group: 'Structure' },
    access: contentAccess(ctx.options),
    fields: [
      { name: 'reference', type: 'text', required: true, unique: true },
      { name: 'location', type: 'text' },
      {
        name: 'allowedComponents',
        // JSON, not a list of texts: null (no list) and [] (an empty list) are kept apart.
        type: 'json',
        admin: { description: 'Component collection IRIs allowed in this group, e.g. ["/component/html_contents"]; null for no list' },
        custom: { cwa: { iri: true, schema: { type: 'array', items: { type: 'string', format: 'iri-reference' }, description: 'Component collection IRIs (null: no list)' } } },
      },
      {
        name: 'componentPositions',
        type: 'join',
        collection: 'component_positions',
        on: 'componentGroup',
        defaultLimit: 0,
        defaultSort: 'sortValue',
      },
    ],
    hooks: { beforeValidate: [allowedComponentsHook(ctx)] },
    custom: { cwa },
  }
}
