import { dataFields } from '../../../core/registry.js'
import type { RecordRef } from '../structure/descendants.js'
import type { StructureSchema } from '../structure/schema.js'
import type { Edge } from './walk.js'

/** One node of the manifest: an IRI and what it contains at that rendering depth. */
export interface ManifestNode {
  iri: string
  children: ManifestNode[]
}

/** A rendering depth: the Page, or the PageData record (the version listed) and its template. */
export interface Depth {
  kind: string
  /** The row listed (for page data: the version the caller sees); null when the caller sees none. */
  row: Record<string, unknown> | null
}

export type VisibleDepth = Depth & { row: Record<string, unknown> }

/** Component-typed single relationships of a page data type: what a dynamic position can bind to. */
export function componentProperties(
  schema: StructureSchema,
  slug: string,
): Array<{ property: string; column: string; target: string }> {
  const resource = schema.registry.bySlug(slug)
  if (!resource) return []
  const components = new Set(schema.componentSlugs)
  const out: Array<{ property: string; column: string; target: string }> = []
  for (const field of dataFields(resource.collection.fields)) {
    if (
      field.type !== 'relationship' ||
      field.hasMany ||
      typeof field.relationTo !== 'string' ||
      !components.has(field.relationTo)
    )
      continue
    const column = schema.columnName(slug, field.name)
    if (column) out.push({ property: field.name, column, target: field.relationTo })
  }
  return out
}

/** The components held by the page data of the depths: seeds of the containment walk. */
export function propertySeeds(schema: StructureSchema, depths: Depth[]): RecordRef[] {
  const seeds: RecordRef[] = []
  for (const depth of depths) {
    if (depth.kind === 'pages' || !depth.row) continue
    for (const { column, target } of componentProperties(schema, depth.kind)) {
      const value = depth.row[column]
      if (typeof value === 'string') seeds.push({ kind: target, id: value })
    }
  }
  return seeds
}

/** The Page a depth renders through (itself, or a page data record's template). */
export function renderPage(schema: StructureSchema, depth: VisibleDepth): string | null {
  if (depth.kind === 'pages') return String(depth.row.id)
  const value = depth.row[schema.columnName(depth.kind, 'page') ?? 'page_id']
  return typeof value === 'string' ? value : null
}

const key = (kind: string, id: string | null) => `${kind}:${id}`

/**
 * Builds resource_iris from the containment edges: one tree per depth, root
 * first; the last one rooted at the route. A layout already listed at a
 * shallower depth is left out; a template page is listed at every depth that
 * renders through it; a position bound to a page data property holds the
 * component of that depth's page data record.
 */
export function assembleManifest(
  schema: StructureSchema,
  routeIri: string,
  depths: Depth[],
  edges: Edge[],
): ManifestNode[] {
  const { registry } = schema
  const children = new Map<string, Edge[]>()
  for (const edge of edges) {
    const list = children.get(key(edge.parentKind, edge.parentId)) ?? []
    list.push(edge)
    children.set(key(edge.parentKind, edge.parentId), list)
  }
  for (const list of children.values()) {
    list.sort(
      (a, b) =>
        a.ord - b.ord || String(a.created ?? '').localeCompare(String(b.created ?? '')) || a.id.localeCompare(b.id),
    )
  }
  const positions = new Map(edges.filter((e) => e.kind === 'component_positions').map((e) => [e.id, e]))
  const iri = (kind: string, id: string) => registry.itemIri(kind, id)
  const listedLayouts = new Set<string>()

  function build(kind: string, id: string, depth: VisibleDepth, trail: Set<string>): ManifestNode {
    const node: ManifestNode = { iri: iri(kind, id), children: [] }
    const self = key(kind, id)
    if (trail.has(self)) return node // a containment cycle: listed once, not followed again
    const inner = new Set(trail).add(self)
    for (const edge of children.get(self) ?? []) {
      if (edge.kind === 'layouts') continue // placed by the page node itself
      node.children.push(build(edge.kind, edge.id, depth, inner))
    }
    if (kind === 'component_positions') {
      const bound = boundComponent(id, depth)
      if (bound) node.children.push(build(bound.kind, bound.id, depth, inner))
    }
    return node
  }

  /** The component a dynamic position resolves to at this depth (the page data's property), if any. */
  function boundComponent(positionId: string, depth: VisibleDepth): { kind: string; id: string } | null {
    const position = positions.get(positionId)
    if (!position?.pageDataClass || !position.pageDataProperty || depth.kind === 'pages') return null
    if (registry.bySlug(depth.kind)?.meta.shortName !== position.pageDataClass) return null
    const property = componentProperties(schema, depth.kind).find((p) => p.property === position.pageDataProperty)
    const stored = property ? depth.row[property.column] : null
    if (typeof stored !== 'string') return null
    const seed = children.get(key('seed', stored))?.[0]
    return seed ? { kind: seed.kind, id: seed.id } : null
  }

  function pageNode(pageId: string, depth: VisibleDepth): ManifestNode {
    const node = build('pages', pageId, depth, new Set())
    const layout = children.get(key('pages', pageId))?.find((e) => e.kind === 'layouts')
    if (layout && !listedLayouts.has(layout.id)) {
      listedLayouts.add(layout.id)
      node.children.unshift(build('layouts', layout.id, depth, new Set([key('pages', pageId)])))
    }
    return node
  }

  const out: ManifestNode[] = []
  depths.forEach((depth, index) => {
    let node: ManifestNode | null = null
    if (depth.row) {
      const visible = depth as VisibleDepth
      const page = renderPage(schema, visible)
      if (depth.kind === 'pages') node = page ? pageNode(page, visible) : null
      else node = { iri: iri(depth.kind, String(visible.row.id)), children: page ? [pageNode(page, visible)] : [] }
    }
    if (index === depths.length - 1) out.push({ iri: routeIri, children: node ? [node] : [] })
    else if (node) out.push(node)
  })
  return out.length > 0 ? out : [{ iri: routeIri, children: [] }]
}
