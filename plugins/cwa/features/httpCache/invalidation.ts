import type { Field, Payload } from 'payload'
import type { WriteEvent, WriteListener } from '../../core/events/index.js'
import { dataFields, getRegistry } from '../../core/registry.js'
import { relationId } from '../../core/utils/relations.js'
import { containersOf } from './containers.js'
import { purgerOf } from './purger.js'
import { reachTagsOf, routePathTagsOf } from '../routes/index.js'

/**
 * After each committed transaction, purges from the shared cache every
 * response tagged with a changed record's IRI (page data and manifests
 * holding it carry that tag), the collection of each changed record's type
 * (members, counts, order), the records its relationships point at, before
 * and after the change (their joins, e.g. a group's positions, changed with
 * it), and the structure holding it up to its pages and layouts
 * (containers.ts). Awaited: the response of the write
 * goes out once the cache is clean, so the next read is fresh. A purge that
 * fails is logged; the write stays committed.
 */

type Doc = Record<string, unknown>

function relationTags(payload: Payload, fields: Field[], doc: Doc | undefined, tags: Set<string>): void {
  if (!doc) return
  const registry = getRegistry(payload.config)
  const add = (slug: string, id: unknown) => {
    const resource = registry.bySlug(slug)
    const value = relationId(id)
    if (resource && value) tags.add(registry.itemIri(resource, value))
  }
  for (const field of dataFields(fields)) {
    if (field.type !== 'relationship' && field.type !== 'upload') continue
    const values = Array.isArray(doc[field.name]) ? (doc[field.name] as unknown[]) : [doc[field.name]]
    for (const value of values) {
      if (value === null || value === undefined) continue
      if (Array.isArray(field.relationTo)) {
        const poly = value as { relationTo?: string; value?: unknown }
        if (poly.relationTo) add(poly.relationTo, poly.value)
      } else {
        add(field.relationTo, value)
      }
    }
  }
}

export function tagsOfEvents(payload: Payload, events: readonly WriteEvent[]): string[] {
  const registry = getRegistry(payload.config)
  const tags = new Set<string>()
  for (const event of events) {
    tags.add(event.iri)
    const resource = registry.bySlug(event.collection)
    if (!resource) continue
    tags.add(resource.collectionIri)
    relationTags(payload, resource.collection.fields, event.doc, tags)
    relationTags(payload, resource.collection.fields, event.previousDoc, tags)
  }
  return [...tags]
}

export const purgeChanged: WriteListener = async (events, { payload }) => {
  const purger = purgerOf(payload)
  if (purger.name === 'none') return
  // What live routes reach, and which route answers a path: answers that consulted them carry their tags.
  let tags = [...tagsOfEvents(payload, events), ...reachTagsOf(payload, events), ...routePathTagsOf(events)]
  try {
    tags = [...new Set([...tags, ...(await containersOf(payload, events))])]
    await purger.purgeTags(tags)
  } catch (error) {
    payload.logger.error(
      { err: error, tags: tags.length },
      'HTTP cache purge after a write failed; cached responses may be stale until they expire',
    )
  }
}
