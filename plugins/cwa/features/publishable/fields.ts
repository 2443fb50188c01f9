import type { Field, FieldHook, PayloadRequest } from 'payload'
import { ADMIN_COMPONENTS } from '../../core/adminComponents.js'
import type { ResolvedPublishable } from './options.js'

/**
 * Request context key set by the state machine, and only by it, when it
 * creates a draft twin: the one write allowed to set publishedResource.
 */
export const TWIN_LINK = 'cwaPublishableTwinLink'

/**
 * A client never sets the twin link, through any API (JSON-LD, Payload REST,
 * admin panel, Local API): on create it is null, on update it keeps its
 * stored value (the database alone clears it, when the published twin goes).
 */
const serviceOnlyTwinLink =
  (name: string): FieldHook =>
  ({ value, originalDoc, operation, req }) => {
    if ((req.context as Record<string, unknown> | undefined)?.[TWIN_LINK] === true) return value
    if (operation === 'create') return null
    const stored = (originalDoc as Record<string, unknown> | undefined)?.[name]
    return stored && typeof stored === 'object' ? ((stored as { id?: unknown }).id ?? null) : (stored ?? null)
  }

/**
 * publishedAt for a signed-in caller without the publish permission, whatever
 * API they use: a create is published at once (now), an update never changes
 * it (no unpublish, no rescheduling). Calls without a user (the service, the
 * Local API) are trusted.
 */
const permittedPublishedAt =
  (name: string, mayPublish: (user: PayloadRequest['user']) => boolean): FieldHook =>
  ({ value, originalDoc, operation, req }) => {
    if (!req.user || mayPublish(req.user)) return value
    if (operation === 'create') return new Date().toISOString()
    return (originalDoc as Record<string, unknown> | undefined)?.[name] ?? null
  }

/**
 * The publishable fields. publishedResource is the only stored column of the
 * pair: a nullable, unique self-reference on the draft (set null by the
 * database when the published record is deleted); draftResource is its
 * inverse side, a join with no column of its own.
 */
export function publishableFields(
  slug: string,
  names: ResolvedPublishable,
  mayPublish: (user: PayloadRequest['user']) => boolean,
): Field[] {
  return [
    {
      name: names.publishedAt,
      type: 'date',
      index: true,
      // A copy (the admin's Duplicate) starts as a draft: publishing it is a decision of its own.
      hooks: { beforeChange: [permittedPublishedAt(names.publishedAt, mayPublish)], beforeDuplicate: [() => null] },
      admin: {
        position: 'sidebar',
        date: { pickerAppearance: 'dayAndTime' },
        // Its control is one record's panel (state, links, buttons), which a bulk edit cannot show; many records are
        // published at once with POST /_/publish.
        disableBulkEdit: true,
        components: {
          // The edit view shows the date through its publishing panel (state, draft/live links, Publish now, Schedule
          // with Payload's date picker): one date control, not the field's picker beside the panel's.
          Field: {
            path: `${ADMIN_COMPONENTS}#PublicationPanel`,
            clientProps: {
              fields: {
                publishedAt: names.publishedAt,
                publishedResource: names.publishedResource,
                draftResource: names.draftResource,
              },
            },
          },
          // The list view's column: the state badge beside the date.
          Cell: `${ADMIN_COMPONENTS}#PublicationCell`,
        },
      },
    },
    {
      name: names.publishedResource,
      type: 'relationship',
      relationTo: slug,
      unique: true,
      hooks: { beforeChange: [serviceOnlyTwinLink(names.publishedResource)] },
      admin: {
        position: 'sidebar',
        readOnly: true,
        description: 'Set on a draft: the published version it will replace.',
      },
    },
    {
      name: names.draftResource,
      type: 'join',
      collection: slug,
      on: names.publishedResource,
      defaultLimit: 1,
      admin: { position: 'sidebar', allowCreate: false },
      // One draft per published record: serialized as a single IRI.
      custom: { cwa: { single: true } },
    },
  ]
}
