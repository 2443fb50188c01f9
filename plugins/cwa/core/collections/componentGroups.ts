import type { CollectionConfig } from 'payload'
import { contentAccess } from '../access.js'
import { type CoreContext, tableName } from '../context.js'
import type { CwaResourceMeta } from '../types.js'
import { allowedComponentsHook } from '../hooks/allowedComponents.js'
import { groupOwnerAfterChange, groupOwnerBeforeChange, groupOwnerFields, OWNER_FIELDS } from '../hooks/groupOwner.js'

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
    // The owner a group takes on create (hooks/groupOwner.ts): accepted on write, never served.
    writeOnly: [...OWNER_FIELDS],
  }
  return {
    slug: 'component_groups',
    dbName: tableName(ctx, 'component_groups'),
    labels: { singular: 'Component group', plural: 'Component groups' },
    // Out of the navigation (group: false; the page builder reaches them), still at /admin/collections/component_groups.
    admin: {
      useAsTitle: 'reference',
      group: false,
      description: 'A named region of a layout, page or block holding blocks in order. Edit them in the page builder.',
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
        admin: { description: 'Unique: the front end finds the group by it.' },
      },
      {
        name: 'location',
        type: 'text',
        label: 'Location',
        admin: { description: 'Where the group sits on its page or layout, e.g. main, sidebar, header.' },
      },
      {
        name: 'allowedComponents',
        // JSON, not a list of texts: null (no list) and [] (an empty list) are kept apart.
        type: 'json',
        label: 'Allowed block types',
        admin: {
          description: 'Only these types may be added, e.g. ["/_api/component/html_contents"]; empty: every type.',
        },
        custom: {
          cwa: {
            iri: true,
            schema: {
              type: 'array',
              items: { type: 'string', format: 'iri-reference' },
              description: 'Component collection IRIs (null: no list)',
            },
          },
        },
      },
      {
        name: 'componentPositions',
        type: 'join',
        collection: 'component_positions',
        on: 'componentGroup',
        label: 'Positions',
        defaultLimit: 0,
        defaultSort: 'sortValue',
      },
      ...groupOwnerFields(ctx),
    ],
    hooks: {
      beforeValidate: [allowedComponentsHook(ctx)],
      beforeChange: [groupOwnerBeforeChange(ctx)],
      afterChange: [groupOwnerAfterChange(ctx)],
    },
    custom: { cwa },
  }
}
