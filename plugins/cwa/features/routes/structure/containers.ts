import type { Payload } from 'payload'
import type { WriteEvent } from '../../../core/events/index.js'
import { relationId } from '../../../core/utils/relations.js'
import { dataFields, getRegistry, type Resource } from '../../../core/registry.js'
import { structureSchema } from './schema.js'
import { sql, type SqlChunk } from './sql.js'

/** Where a walk up the structure starts: changed components (by type) and component groups. */
export interface ContainerRoots {
  components: Array<{ slug: string; id: string }>
  groups: string[]
}

const POSITIONS = 'component_positions'
const GROUPS = 'component_groups'

/** An edge up the structure: a record of `child` kind is held by a record of `parent` kind (one indexed branch). */
interface Edge {
  child: string
  parent: string
  branch: SqlChunk
}

/**
 * The branch finding the `parent` records whose relationship `field` holds
 * `up.id` of kind `child`: the field's column when it is one, else its
 * `_rels` rows (hasMany, polymorphic).
 */
function holderBranch(
  payload: Payload,
  parent: Resource,
  field: { name: string; hasMany?: boolean; relationTo: unknown },
  child: string,
): SqlChunk | null {
  const schema = structureSchema(payload)
  const single = !Array.isArray(field.relationTo) && !field.hasMany
  const column = single ? schema.columnName(parent.slug, field.name) : null
  if (column)
    return sql`SELECT ${parent.slug}::text AS kind, t.id FROM ${schema.table(parent.slug)} t
      WHERE up.kind = ${child}::text AND t.${sql.identifier(column)} = up.id`
  const relsColumn = schema.relsName(parent.slug) ? schema.relsColumnName(parent.slug, child) : null
  if (!relsColumn) return null
  return sql`SELECT ${parent.slug}::text AS kind, r.parent_id AS id FROM ${schema.rels(parent.slug)} r
    WHERE up.kind = ${child}::text AND r.path = ${field.name}::text AND r.${sql.identifier(relsColumn)} = up.id`
}

/**
 * Every edge containersOf (httpCache/containers.ts) follows: a component is
 * held by the positions placing it and the page data records whose
 * properties hold it; a position by its group; a group by the pages,
 * layouts and components (nested regions) listing it.
 */
function edgesOf(payload: Payload): Edge[] {
  const registry = getRegistry(payload.config)
  const components = new Set(registry.ofKind('component').map((r) => r.slug))
  const edges: Edge[] = []
  for (const parent of registry.all()) {
    for (const field of dataFields(parent.collection.fields)) {
      if (field.type !== 'relationship') continue
      const targets = (Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]) as string[]
      for (const child of targets) {
        const heldComponent = components.has(child) && (parent.slug === POSITIONS || parent.meta.kind === 'pageData')
        const heldGroup = child === GROUPS && parent.slug !== POSITIONS
        if (!heldComponent && !heldGroup) continue
        const branch = holderBranch(payload, parent, field, child)
        if (branch) edges.push({ child, parent: parent.slug, branch })
      }
    }
  }
  const schema = structureSchema(payload)
  const group = schema.column(POSITIONS, 'componentGroup')
  edges.push({
    child: POSITIONS,
    parent: GROUPS,
    branch: sql`SELECT ${GROUPS}::text AS kind, p.${group} AS id FROM ${schema.table(POSITIONS)} p
      WHERE up.kind = ${POSITIONS}::text AND p.id = up.id AND p.${group} IS NOT NULL`,
  })
  return edges
}

/**
 * The IRIs of the structure holding the roots, up to the pages, layouts and
 * page data (the roots included), as one SQL expression of type text[]: a
 * recursive walk, one indexed lookup per record and edge, that reads the
 * database as the statement sees it (in a write's transaction, its own
 * changes count). What containersOf finds with a few queries per level.
 */
export function containerIrisSql(payload: Payload, roots: ContainerRoots): SqlChunk {
  const registry = getRegistry(payload.config)
  const kinds = [...roots.components.map((c) => c.slug), ...roots.groups.map(() => GROUPS)]
  const ids = [...roots.components.map((c) => c.id), ...roots.groups]
  if (ids.length === 0) return sql`'{}'::text[]`
  const edges = edgesOf(payload)
  const kindsSeen = new Set([...kinds, ...edges.map((e) => e.parent)])
  const iriOf = sql.join(
    [...kindsSeen].map((kind) => sql`WHEN ${kind}::text THEN ${registry.itemIri(kind, '')}::text`),
    sql` `,
  )
  return sql`(SELECT coalesce(array_agg((CASE up.kind ${iriOf} END) || up.id::text), '{}'::text[]) FROM (
    WITH RECURSIVE up(kind, id) AS (
      SELECT * FROM unnest(${`{${kinds.join(',')}}`}::text[], ${`{${ids.join(',')}}`}::uuid[])
      UNION
      SELECT n.kind, n.id FROM up CROSS JOIN LATERAL (${sql.join(
        edges.map((e) => e.branch),
        sql` UNION ALL `,
      )}) n
    )
    SELECT kind, id FROM up
  ) AS up)`
}

/** The roots of the walk up from a transaction's changes: its components, its groups, and the groups its positions left or joined. */
export function containerRootsOf(payload: Payload, events: readonly WriteEvent[]): ContainerRoots {
  const registry = getRegistry(payload.config)
  const roots: ContainerRoots = { components: [], groups: [] }
  for (const event of events) {
    if (registry.bySlug(event.collection)?.meta.kind === 'component')
      roots.components.push({ slug: event.collection, id: event.id })
    if (event.collection === GROUPS) roots.groups.push(event.id)
    if (event.collection === POSITIONS)
      for (const doc of [event.doc, event.previousDoc]) {
        const group = relationId(doc?.componentGroup)
        if (group) roots.groups.push(group)
      }
  }
  return roots
}
