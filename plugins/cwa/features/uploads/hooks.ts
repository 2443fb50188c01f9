import type {
  CollectionAfterChangeHook,
  CollectionAfterDeleteHook,
  CollectionBeforeChangeHook,
  PayloadRequest,
} from 'payload'
import type { CwaResourceMeta } from '../../core/types.js'
import { filtersOf } from './fields.js'
import type { ResolvedField } from './options.js'
import { stageDataUri, stagedByToken, sweepStaging } from './staging.js'
import { copyForDraft, fileViolation, releaseAfterCommit, storeStaged } from './store.js'

/**
 * The collection hooks of an uploadable type. They run on every API (JSON-LD,
 * Payload REST, GraphQL, the admin panel, the Local API), so that:
 * - a stored-path column is only ever set by this code: whatever a client
 *   sends for it is replaced by the record's current value;
 * - the transient property takes a staged upload (multipart), a data URI or
 *   null (delete the file);
 * - a new draft twin gets its own copy of its published record's file, and
 *   publishing hands the draft's file to the published record;
 * - a copy made by Payload's duplicate gets its own copy of the original's file;
 * - files a record stops naming go after the commit.
 */

const RELEASED = 'cwaUploadsReleased'

/** Paths a deleted draft held, by the published record it pointed to: a publish in the same request takes them over. */
function released(req: PayloadRequest): Map<string, Record<string, string | null>> {
  const context = req.context as Record<string, unknown>
  const map = (context[RELEASED] as Map<string, Record<string, string | null>> | undefined) ?? new Map()
  context[RELEASED] = map
  return map
}

const key = (slug: string, id: unknown) => `${slug}:${String(id)}`
const relationId = (value: unknown) => (value && typeof value === 'object' ? (value as { id?: unknown }).id : value)

export function beforeChangeHook(
  meta: CwaResourceMeta,
  fields: ResolvedField[],
  publishedResource: string | null,
): CollectionBeforeChangeHook {
  return async ({ data, originalDoc, operation, req, collection }) => {
    const slug = collection.slug
    const handedOver = operation === 'update' && originalDoc ? released(req).get(key(slug, originalDoc.id)) : undefined
    // Payload's duplicate is a create whose originalDoc is the record copied, without its id; on any other create it is
    // empty, or holds only the `_status` Payload adds when publishing all locales.
    const duplicateOf =
      operation === 'create' && originalDoc && Object.keys(originalDoc).some((name) => name !== '_status')
        ? (originalDoc as Record<string, unknown>)
        : null
    // A copy's twin link is the original's until the field hook clears it: a copy is no draft twin.
    const twinOf =
      operation === 'create' && publishedResource && !duplicateOf ? relationId(data[publishedResource]) : null
    let twin: Record<string, unknown> | null = null
    for (const field of fields) {
      const incoming = data[field.name]
      delete data[field.name]
      const current =
        operation === 'update' ? ((originalDoc?.[field.property] as string | null | undefined) ?? null) : null
      let next: string | null = current
      // Publishing: the published record takes the file of the draft deleted just before in this request.
      if (handedOver && field.property in handedOver && data[field.property] === handedOver[field.property])
        next = handedOver[field.property] ?? null
      // A new draft twin: its own copy of the published record's file (contract rule 5).
      if (twinOf && incoming === undefined) {
        twin ??= (await req.payload.findByID({
          collection: slug,
          id: String(twinOf),
          depth: 0,
          overrideAccess: true,
          disableErrors: true,
          req,
        })) as Record<string, unknown> | null
        const source = twin?.[field.property]
        if (typeof source === 'string' && source) next = await copyForDraft(req.payload, req, field, source)
      }
      // A copy (duplicate): its own copy of the original's file, as a draft twin gets one, so that deleting either keeps the other's.
      if (duplicateOf && incoming === undefined) {
        const source = duplicateOf[field.property]
        if (typeof source === 'string' && source) next = await copyForDraft(req.payload, req, field, source)
      }
      if (incoming === null) next = null
      else if (incoming !== undefined) {
        void sweepStaging(req.payload)
        const staged =
          stagedByToken(req, incoming) ??
          (typeof incoming === 'string' ? await stageDataUri(req.payload, incoming) : null)
        if (!staged)
          throw fileViolation(
            slug,
            field.name,
            'This value should be a file: a data URI (data:<type>;base64,...) or a multipart upload.',
          )
        next = await storeStaged(req.payload, req, slug, field, staged, filtersOf(meta, field, req))
      }
      data[field.property] = next
    }
    return data
  }
}

export function afterChangeHook(fields: ResolvedField[]): CollectionAfterChangeHook {
  return async ({ doc, previousDoc, operation, req }) => {
    if (operation !== 'update' || !previousDoc) return doc
    for (const field of fields) {
      const before = previousDoc[field.property]
      if (typeof before === 'string' && before && before !== doc[field.property])
        await releaseAfterCommit(req.payload, req, field.adapter, before)
    }
    return doc
  }
}

export function afterDeleteHook(fields: ResolvedField[], publishedResource: string | null): CollectionAfterDeleteHook {
  return async ({ doc, req, collection }) => {
    const paths: Record<string, string | null> = {}
    for (const field of fields) {
      const path = doc[field.property]
      paths[field.property] = typeof path === 'string' ? path : null
      if (typeof path === 'string' && path) await releaseAfterCommit(req.payload, req, field.adapter, path)
    }
    const twin = publishedResource ? relationId(doc[publishedResource]) : null
    if (twin) released(req).set(key(collection.slug, twin), paths)
    return doc
  }
}
