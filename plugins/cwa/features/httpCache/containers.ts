import type { Payload, PayloadRequest, Where } from 'payload'
import type { WriteEvent } from '../../core/events/index.js'
import { dataFields, getRegistry, type Resource } from '../../core/registry.js'
import { relationId } from '../../core/utils/relations.js'

/**
 * The resources that hold a changed record, up the page structure: a
 * component's positions, their component groups, the pages, layouts and
 * components owning those groups (and, for a component, up again through
 * its own positions), and the page data records whose properties hold it.
 * Their cached responses list IRIs of the structure (a page names its
 * groups, a group its positions), so they are purged with the record. A few
 * queries per level, not per record.
 */

const MAX_LEVELS = 8
type Ref = { slug: string; id: string }

async function findIds(payload: Payload, slug: string, where: Where, req?: PayloadRequest): Promise<string[]> {
  const found = await payload.find({
    req,
    collection: slug,
    where,
    depth: 0,
    pagination: false,
    select: {},
    overrideAccess: true,
  })
  return (found.docs as Array<{ id: unknown }>).map((doc) => String(doc.id))
}

/** Collections with a relationship to `target` (name of each such field). */
function holdersOf(
  resources: Resource[],
  target: string,
): Array<{ resource: Resource; field: string; polymorphic: boolean }> {
  return resources.flatMap((resource) =>
    dataFields(resource.collection.fields).flatMap((field) => {
      if (field.type !== 'relationship') return []
      const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]
      return targets.includes(target)
        ? [{ resource, field: field.name, polymorphic: Array.isArray(field.relationTo) }]
        : []
    }),
  )
}

/** `req`: read in its transaction (the read model invalidates before the commit, seeing the write's own changes). */
export async function containersOf(
  payload: Payload,
  events: readonly WriteEvent[],
  req?: PayloadRequest,
): Promise<string[]> {
  const registry = getRegistry(payload.config)
  const resources = registry.all()
  const tags = new Set<string>()
  const seen = new Set<string>()
  let components: Ref[] = []
  let groups: string[] = []
  for (const event of events) {
    const kind = registry.bySlug(event.collection)?.meta.kind
    if (kind === 'component') components.push({ slug: event.collection, id: event.id })
    if (event.collection === 'component_groups') groups.push(event.id)
    if (event.collection === 'component_positions') {
      for (const doc of [event.doc, event.previousDoc]) {
        const group = relationId(doc?.componentGroup)
        if (group) groups.push(group)
      }
    }
  }
  for (let level = 0; level < MAX_LEVELS && (components.length > 0 || groups.length > 0); level++) {
    components = components.filter((ref) => !seen.has(`${ref.slug}:${ref.id}`))
    for (const ref of components) seen.add(`${ref.slug}:${ref.id}`)
    // Positions and page data holding the components.
    const bySlug = new Map<string, string[]>()
    for (const ref of components) bySlug.set(ref.slug, [...(bySlug.get(ref.slug) ?? []), ref.id])
    for (const [slug, ids] of bySlug) {
      for (const holder of holdersOf(resources, slug)) {
        const where: Where = holder.polymorphic
          ? { and: [{ [`${holder.field}.relationTo`]: { equals: slug } }, { [`${holder.field}.value`]: { in: ids } }] }
          : { [holder.field]: { in: ids } }
        if (holder.resource.slug === 'component_positions') {
          const found = await payload.find({
            req,
            collection: 'component_positions',
            where,
            depth: 0,
            pagination: false,
            select: { componentGroup: true },
            overrideAccess: true,
          })
          for (const position of found.docs as Array<{ id: unknown; componentGroup?: unknown }>) {
            tags.add(registry.itemIri('component_positions', String(position.id)))
            const group = relationId(position.componentGroup)
            if (group) groups.push(group)
          }
        } else if (holder.resource.meta.kind === 'pageData') {
          for (const id of await findIds(payload, holder.resource.slug, where, req))
            tags.add(registry.itemIri(holder.resource, id))
        }
      }
    }
    // Owners of the groups: pages, layouts, components (whose own containers are the next level).
    const next: Ref[] = []
    const groupIds = [...new Set(groups)].filter((id) => !seen.has(`component_groups:${id}`))
    for (const id of groupIds) {
      seen.add(`component_groups:${id}`)
      tags.add(registry.itemIri('component_groups', id))
    }
    if (groupIds.length > 0) {
      for (const holder of holdersOf(resources, 'component_groups')) {
        if (holder.resource.slug === 'component_positions') continue
        for (const id of await findIds(payload, holder.resource.slug, { [holder.field]: { in: groupIds } }, req)) {
          tags.add(registry.itemIri(holder.resource, id))
          if (holder.resource.meta.kind === 'component') next.push({ slug: holder.resource.slug, id })
        }
      }
    }
    components = next
    groups = []
  }
  return [...tags]
}
