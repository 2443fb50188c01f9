import type { CollectionConfig, Field } from 'payload'
import type { ResolvedCwaOptions } from '../../core/options.js'
import { getCwaMeta } from '../../core/types.js'
import { publishableOf } from '../publishable/index.js'
import { fieldsOf } from './fields.js'
import { afterChangeHook, afterDeleteHook, beforeChangeHook } from './hooks.js'
import type { ResolvedField } from './options.js'

const WRAPPED = Symbol.for('cwa.uploads.requiredOnPublish')

/** An upload in the request (staged token or data URI) or a stored path. */
const hasFile = (doc: Record<string, unknown>, field: ResolvedField) => {
  const sent = doc[field.name]
  if (sent === null) return false
  if (typeof sent === 'string' && sent !== '') return true
  return typeof doc[field.property] === 'string' && doc[field.property] !== ''
}

/**
 * Makes a declared component with `uploadable` file fields work: checks the
 * declaration at start-up (adapters, filters, one stored-path property per
 * field), adds each transient property (write-only, never stored) and each
 * stored-path column (read-only on every API), the hooks that keep files and
 * records in step, and the requiredOnPublish checks in the publish validation.
 */
export function applyUploadable(collection: CollectionConfig, options: ResolvedCwaOptions): CollectionConfig {
  const meta = getCwaMeta(collection)
  if (!meta?.uploadable) return collection
  if (meta.kind !== 'component')
    throw new Error(`cwa uploads: ${meta.shortName} declares uploadable, which only component types support`)
  const fields = fieldsOf(meta)
  for (const field of fields) {
    if (!options.uploads.storage[field.adapter]) {
      throw new Error(
        `cwa uploads: ${meta.shortName}.${field.name} uses storage "${field.adapter}", which is not registered (uploads.storage has: ${Object.keys(options.uploads.storage).join(', ')})`,
      )
    }
    for (const filter of field.imagineFilters) {
      if (!options.uploads.filters[filter])
        throw new Error(`cwa uploads: ${meta.shortName}.${field.name} names an unknown image filter "${filter}"`)
    }
  }
  const existing = new Set(collection.fields.flatMap((f) => ('name' in f ? [f.name] : [])))
  const added: Field[] = []
  for (const field of fields) {
    if (existing.has(field.name))
      throw new Error(
        `cwa uploads: ${meta.shortName} has a field named "${field.name}", the transient file property of the same name`,
      )
    // The transient property: accepted on write (data URI, null, a staged upload), never stored or shown.
    added.push({ name: field.name, type: 'text', virtual: true, admin: { hidden: true } })
    // The stored path: a nullable string column, set only by the upload hooks.
    if (!existing.has(field.property)) added.push({ name: field.property, type: 'text', admin: { readOnly: true } })
  }
  const names = publishableOf({ meta })
  if (names && !(names as { [WRAPPED]?: true })[WRAPPED]) {
    const own = names.validate
    names.validate = (doc) => [
      ...(own?.(doc) ?? []),
      ...fields
        .filter((field) => field.requiredOnPublish && !hasFile(doc, field))
        .map((field) => ({
          propertyPath: field.name,
          message: field.requiredOnPublishMessage.replaceAll('{{ property }}', field.name),
        })),
    ]
    Object.defineProperty(names, WRAPPED, { value: true, enumerable: false })
  }
  const hooks = collection.hooks ?? {}
  const publishedResource = names?.publishedResource ?? null
  return {
    ...collection,
    fields: [...collection.fields, ...added],
    hooks: {
      ...hooks,
      beforeChange: [...(hooks.beforeChange ?? []), beforeChangeHook(meta, fields, publishedResource)],
      afterChange: [...(hooks.afterChange ?? []), afterChangeHook(fields)],
      afterDelete: [...(hooks.afterDelete ?? []), afterDeleteHook(fields, publishedResource)],
    },
    custom: {
      ...collection.custom,
      cwa: {
        ...meta,
        writeOnly: [...(meta.writeOnly ?? []), ...fields.map((f) => f.name)],
        readOnly: [...(meta.readOnly ?? []), ...fields.map((f) => f.property)],
      },
    },
  }
}
