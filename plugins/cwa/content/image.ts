import type { CollectionConfig } from 'payload'
import { defineComponent } from '../core/define.js'
import { type ComponentTypeOptions, withOptions } from './declare.js'

/** An image's name in the admin: its file name as uploaded (the stored name's token and extension dropped), else its alt text. */
export function imageTitle(doc: Record<string, unknown>): string | null {
  const stored = (typeof doc.filename === 'string' ? doc.filename.split('/').pop()! : '').replace(/\.[^.]*$/, '')
  // A data-URI upload without a name is stored as a bare uuid: nothing to read there.
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(stored)
  const stem = uuid
    ? ''
    : stored
        .replace(/-[0-9a-f]{12}$/, '')
        .replace(/[-_]+/g, ' ')
        .trim()
  return stem || (typeof doc.alt === 'string' && doc.alt.trim() ? doc.alt : null)
}

/**
 * An image (`Image`, served at /component/images): one uploaded file (local storage, at most 5 MiB and 40
 * megapixels) with its `thumbnail` variant ([uploads](docs/uploads.md)) and its `alt` text. Publishable.
 */
export function image(options: ComponentTypeOptions = {}): CollectionConfig {
  return defineComponent(
    withOptions(
      {
        shortName: 'Image',
        adminIcon: 'image',
        mercure: true,
        publishable: true,
        uploadable: {
          file: {
            adapter: 'local',
            urlGenerator: 'public',
            imagineFilters: ['thumbnail'],
            maxSize: '5M',
            maxPixels: 40_000_000,
            property: 'filename',
          },
        },
        collection: {
          labels: { singular: 'Image', plural: 'Images' },
          admin: {
            description: 'Pictures shown on pages (JPEG, PNG, WebP; scaled down in the browser when very large).',
          },
        },
        adminTitle: imageTitle,
        fields: [
          {
            name: 'alt',
            type: 'text',
            label: 'Alt text',
            admin: { description: 'What the image shows, for people who cannot see it (served as alt).' },
          },
          { name: 'filename', type: 'text', admin: { readOnly: true } },
        ],
      },
      options,
    ),
  )
}
