import type { Payload, PayloadRequest, Where } from 'payload'
import type { WriteEvent } from '../../core/events/index.js'
import { dataFields, getOptions, getRegistry, type Resource } from '../../core/registry.js'
import { isPublished, publishableOf } from '../publishable/index.js'
import type { HubUpdate } from './publisher.js'
import { adminView, anonymousView, asServed } from './views.js'

/**
 * The hub updates of one committed transaction: for each changed record of a
 * real-time type, its absolute IRI as the topic and its JSON-LD as an
 * anonymous reader sees it (public), else the admin's view (private); a
 * delete is `{"@id": ...}` (private for a record that was a draft). A
 * changed component also updates every page data record holding it.
 */

/** Whether changes of a resource go to the hub: the type's `mercure` (or `realtime`) flag; core resources by option. */
export function isRealtime(payload: Payload, resource: Resource): boolean {
  if (resource.meta.kind === 'core') return getOptions(payload.config).mercure.coreResources
  return (resource.meta.mercure ?? resource.meta.realtime) === true
}

/** The base of absolute topic IRIs: the option, else Payload's serverURL, else the writing request's origin. */
export function topicBase(payload: Payload, req?: PayloadRequest): URL {
  const configured = getOptions(payload.config).mercure.topicBase ?? (payload.config.serverURL || null)
  if (configured) return new URL(configured)
  try {
    if (req?.url) return new URL(new URL(req.url).origin)
  } catch {
    /* a Local API request has no usable URL */
  }
  return new URL('http://localhost')
}

const topicOf = (base: URL, iri: string) => new URL(iri, base).href

/** Was the deleted record something anonymous readers could not see (a draft)? */
function wasDraft(resource: Resource, doc: Record<string, unknown> | undefined): boolean {
  const names = publishableOf(resource)
  return names !== null && doc !== undefined && !isPublished(doc, names)
}

/** The page data records whose relationship fields hold this component (one query per page data type and field). */
async function pageDataHolders(
  payload: Payload,
  req: PayloadRequest,
  component: Resource,
  id: string,
): Promise<Array<{ resource: Resource; id: string }>> {
  const registry = getRegistry(payload.config)
  const out: Array<{ resource: Resource; id: string }> = []
  for (const resource of registry.all()) {
    if (resource.meta.kind !== 'pageData') continue
    for (const field of dataFields(resource.collection.fields)) {
      if (field.type !== 'relationship') continue
      const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]
      if (!targets.includes(component.slug)) continue
      const where: Where = Array.isArray(field.relationTo)
        ? {
            and: [
              { [`${field.name}.relationTo`]: { equals: component.slug } },
              { [`${field.name}.value`]: { equals: id } },
            ],
          }
        : { [field.name]: { equals: id } }
      const found = await payload.find({
        collection: resource.slug,
        where,
        depth: 0,
        pagination: false,
        select: {},
        overrideAccess: true,
        req,
      })
      for (const doc of found.docs as Array<{ id: unknown }>) out.push({ resource, id: String(doc.id) })
    }
  }
  return out
}

async function viewUpdate(
  payload: Payload,
  base: URL,
  resource: Resource,
  id: string,
  iri: string,
): Promise<HubUpdate | null> {
  const anonymous = await anonymousView(payload, base, iri)
  if (anonymous) return { topic: topicOf(base, iri), data: JSON.stringify(anonymous), private: false }
  const admin = await adminView(payload, base, resource, id, iri)
  return admin ? { topic: topicOf(base, iri), data: JSON.stringify(admin), private: true } : null
}

export async function updatesFor(
  payload: Payload,
  req: PayloadRequest,
  events: readonly WriteEvent[],
): Promise<HubUpdate[]> {
  const registry = getRegistry(payload.config)
  const base = topicBase(payload, req)
  const updates: HubUpdate[] = []
  const done = new Set<string>(events.map((event) => event.iri))
  for (const event of events) {
    const resource = registry.bySlug(event.collection)
    if (!resource || !isRealtime(payload, resource)) continue
    if (event.type === 'delete') {
      updates.push({
        topic: topicOf(base, event.iri),
        data: JSON.stringify(await asServed(payload, { '@id': event.iri }, null)),
        private: wasDraft(resource, event.doc),
      })
    } else {
      const update = await viewUpdate(payload, base, resource, event.id, event.iri)
      if (update) updates.push(update)
    }
    if (resource.meta.kind !== 'component') continue
    for (const holder of await pageDataHolders(payload, req, resource, event.id)) {
      const iri = registry.itemIri(holder.resource, holder.id)
      if (done.has(iri)) continue
      done.add(iri)
      const update = await viewUpdate(payload, base, holder.resource, holder.id, iri)
      if (update) updates.push(update)
    }
  }
  return updates
}
