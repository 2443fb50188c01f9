import type { Field } from 'payload'
import type { ResolvedPublishable } from './options'

/**
 * The publishable fields. publishedResource is the only stored column of the
 * pair: a nullable, unique self-reference on the draft (set null by the
 * database when the published record is deleted); draftResource is its
 * inverse side, a join with no column of its own.
 */
export function publishableFields(slug: string, names: ResolvedPublishable): Field[] {
  return [
    {
      name: names.publishedAt,
      type: 'date',
      index: true,
      admin: { position: 'sidebar', date: { pickerAppearance: 'dayAndTime' }, description: 'Empty: draft. Future: scheduled.' },
    },
    {
      name: names.publishedResource,
      type: 'relationship',
      relationTo: slug as never,
      unique: true,
      admin: { position: 'sidebar', readOnly: true, description: 'Set on a draft: the published version it will replace.' },
    },
    {
      name: names.draftResource,
      type: 'join',
      collection: slug as never,
      on: names.publishedResource,
      defaultLimit: 1,
      admin: { position: 'sidebar', allowCreate: false },
      // One draft per published record: serialized as a single IRI.
      custom: { cwa: { single: true } },
    },
  ]
}
