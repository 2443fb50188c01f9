import type { CollectionConfig } from 'payload'
import { defineComponent } from '../core/define.js'
import { type ComponentTypeOptions, withOptions } from './declare.js'

/** A heading on its own (`Title`, served at /component/titles): its `title` text. Not publishable. */
export function heading(options: ComponentTypeOptions = {}): CollectionConfig {
  return defineComponent(
    withOptions(
      {
        shortName: 'Title',
        adminIcon: 'heading',
        timestamped: true,
        collection: {
          labels: { singular: 'Heading', plural: 'Headings' },
          admin: { description: 'A heading on its own.' },
        },
        fields: [{ name: 'title', type: 'text', required: true }],
      },
      options,
    ),
  )
}
