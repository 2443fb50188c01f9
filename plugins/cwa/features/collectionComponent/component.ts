import type { CollectionConfig, PayloadRequest } from 'payload'
import { getRegistry } from '../../core/registry.js'
import { defineComponent } from '../../core/define.js'

/** The built-in Collection component: proxies another resource's collection endpoint. */
export function collectionComponent(): CollectionConfig {
  return defineComponent({
    shortName: 'Collection',
    adminIcon: 'list',
    collection: {
      labels: { singular: 'Record list', plural: 'Record lists' },
      admin: { description: 'A list of records (blog articles...), paged, as the front end shows it.' },
    },
    fields: [
      {
        name: 'resourceIri',
        type: 'text',
        required: true,
        // Stored canonical (`/page_data/blog_article_datas`), served like every @id.
        custom: { cwa: { iri: true } },
        hooks: { beforeChange: [({ value, req }) => getRegistry(req.payload.config).canonicalIri(value) ?? value] },
        validate: (value: unknown, { req }: { req: PayloadRequest }) => {
          const parsed = getRegistry(req.payload.config).parseIri(value)
          if (!parsed) return 'This value is not a valid resource IRI.'
          if (parsed.id) return 'The IRI must be a collection IRI.'
          return true
        },
      },
      {
        name: 'perPage',
        type: 'number',
        min: 1,
        max: 100,
        validate: (value: unknown) =>
          value == null || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 100)
            ? true
            : 'perPage must be an integer between 1 and 100.',
      },
      {
        name: 'defaultQueryParameters',
        type: 'json',
        validate: (value: unknown) =>
          value == null || (typeof value === 'object' && !Array.isArray(value))
            ? true
            : 'defaultQueryParameters must be an object or null.',
      },
    ],
  })
}
