import type { CollectionAfterChangeHook, Where } from 'payload'
import { getOptions, getRegistry } from '../../core/registry.js'
import { relationId } from '../../core/utils/relations.js'

type Doc = Record<string, unknown> & { id: string }

/** Where a page with nothing to copy gets its blocks. */
const DEFAULT_LOCATIONS = [{ location: 'main', allowedComponents: null as unknown }]

/**
 * A page created in the admin panel (Payload's REST API, which the panel's
 * create form uses) without groups gets the groups pages like it have: the
 * locations (and allowed types) of the newest page on the same layout, and
 * the same front-end template when it has one; else one group at `main`.
 * So an editor's new page opens in the page builder ready for blocks,
 * without typing a location name. The JSON-LD API (the contract's clients
 * create their groups themselves) and the Local API are left as they are.
 * Groups are named as the page builder names them: `<page reference>_<location>`,
 * or `<location>_<page IRI>` under compat: 'cwa-nuxt'.
 */
export const starterGroups: CollectionAfterChangeHook = async ({ doc, operation, req }) => {
  if (operation !== 'create' || req.payloadAPI !== 'REST') return doc
  if (Array.isArray(doc.componentGroups) && doc.componentGroups.length > 0) return doc
  const layout = relationId(doc.layout)
  const where: Where[] = [{ id: { not_equals: doc.id } }]
  if (layout) where.push({ layout: { equals: layout } })
  if (typeof doc.uiComponent === 'string' && doc.uiComponent) where.push({ uiComponent: { equals: doc.uiComponent } })
  // Read as the service: what pages like this one hold is a layout decision, not content the editor reads.
  const like = await req.payload.find({
    collection: 'pages',
    where: { and: where },
    sort: '-createdAt',
    limit: 10,
    depth: 1,
    req,
    overrideAccess: true,
  })
  const located = (page: Doc) =>
    ((page.componentGroups as Doc[] | undefined) ?? []).filter(
      (g) => typeof g === 'object' && g && typeof g.location === 'string' && g.location,
    )
  const groups = (like.docs as Doc[]).map(located).find((list) => list.length > 0) ?? []
  const seen = new Set<string>()
  const copied = groups.filter((g) => !seen.has(String(g.location)) && !!seen.add(String(g.location)))
  const plan = copied.length
    ? copied.map((g) => ({ location: String(g.location), allowedComponents: g.allowedComponents ?? null }))
    : DEFAULT_LOCATIONS
  const options = getOptions(req.payload.config)
  const iri = getRegistry(req.payload.config).itemIri('pages', doc.id)
  const created: string[] = []
  for (const { location, allowedComponents } of plan) {
    const reference = options.compat === 'cwa-nuxt' ? `${location}_${iri}` : `${String(doc.reference)}_${location}`
    const group = await req.payload.create({
      collection: 'component_groups',
      data: { reference, location, allowedComponents },
      depth: 0,
      req,
    })
    created.push(String(group.id))
  }
  const updated = await req.payload.update({
    collection: 'pages',
    id: doc.id,
    data: { componentGroups: created },
    depth: 0,
    req,
  })
  return { ...doc, componentGroups: updated.componentGroups }
}
