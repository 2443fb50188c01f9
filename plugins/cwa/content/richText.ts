import type { CollectionConfig } from 'payload'
import { defineComponent } from '../core/define.js'
import { type ComponentTypeOptions, withOptions } from './declare.js'
import { CONTENT_FIELD, HTML_FIELD, richTextSync } from './richTextSync.js'

/**
 * Rich text (`HtmlContent`, served at /component/html_contents): editors write with the config's Lexical editor
 * (`content`, kept out of the JSON-LD API), front ends read and write `html`, sanitized by an allow-list; each save
 * derives one from the other (richTextSync.ts). Publishable, `html` required to publish. Needs happy-dom (a
 * dependency of the package, loaded on the first conversion) and the config's `editor: lexicalEditor()`.
 */
export function richText(options: ComponentTypeOptions = {}): CollectionConfig {
  return defineComponent(
    withOptions(
      {
        shortName: 'HtmlContent',
        adminIcon: 'text',
        timestamped: true,
        mercure: true,
        publishable: { requiredOnPublish: [HTML_FIELD] },
        hidden: [CONTENT_FIELD],
        fields: [
          // The config's editor (Lexical): no asset from a CDN, unlike the code field.
          { name: CONTENT_FIELD, type: 'richText', label: 'Content' },
          {
            name: HTML_FIELD,
            type: 'textarea',
            label: 'HTML',
            // No text limit of its own (Payload's default is 40,000 characters): the request body limit bounds it.
            maxLength: Number.MAX_SAFE_INTEGER,
            admin: {
              hidden: true,
              description:
                'Served to front ends; derived from Content on save, and Content from it when written through the API.',
            },
          },
        ],
        collection: {
          labels: { singular: 'Rich text', plural: 'Rich text' },
          admin: { description: 'Formatted text: headings, paragraphs, lists, links.' },
          hooks: { beforeChange: [richTextSync] },
        },
      },
      options,
    ),
  )
}
