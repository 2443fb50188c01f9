import type { CollectionAfterChangeHook, CollectionAfterDeleteHook, CollectionConfig } from 'payload'
import { emitWriteEvent } from './bus.js'

/**
 * The collection hooks that feed the bus: Payload runs them on every API
 * (JSON-LD, Payload REST and GraphQL, the admin panel, the Local API),
 * inside the write's transaction.
 */
export const writeEventAfterChange =
  (): CollectionAfterChangeHook =>
  async ({ collection, doc, operation, previousDoc, req }) => {
    const update = operation !== 'create' && previousDoc && Object.keys(previousDoc).length > 0
    await emitWriteEvent(req, {
      type: operation === 'create' ? 'create' : 'update',
      collection: collection.slug,
      id: doc.id,
      doc,
      ...(update ? { previousDoc } : {}),
    })
    return doc
  }

export const writeEventAfterDelete =
  (): CollectionAfterDeleteHook =>
  async ({ collection, doc, id, req }) => {
    await emitWriteEvent(req, {
      type: 'delete',
      collection: collection.slug,
      id: (doc?.id as string | number | undefined) ?? id,
      doc,
    })
  }

/** Adds the write-event hooks to a collection (after any hooks it has: they see the final document). */
export function withWriteEvents(collection: CollectionConfig): CollectionConfig {
  const hooks = collection.hooks ?? {}
  return {
    ...collection,
    hooks: {
      ...hooks,
      afterChange: [...(hooks.afterChange ?? []), writeEventAfterChange()],
      afterDelete: [...(hooks.afterDelete ?? []), writeEventAfterDelete()],
    },
  }
}
