import type { Payload, PayloadRequest } from 'payload'
import { getOptions, getRegistry } from '../../core/registry.js'
import { runSql, sql, type Sql, type SqlChunk } from '../../core/utils/sql.js'
import { GROUP, id, positionComponentSql, structureOf, type Structure } from './structure.js'

/** One scan's result: the records of each kind that nothing live reaches. */
export interface OrphanScan {
  componentGroups: string[]
  componentPositions: string[]
  /** Components with their collection slug. */
  components: Array<{ slug: string; id: string }>
}

/**
 * The orphan definition (contract, "Orphaned-resource report") as one SQL
 * statement, whatever the number of records:
 *
 * - `live` (recursive): from the groups of every page and layout and the
 *   components of every page data component property (single-type columns
 *   and parent-class-typed, polymorphic properties alike), step by step:
 *   group -> the component of each of its positions, component -> each
 *   group it owns, published component -> its draft (each step an index
 *   lookup gated on the record's kind);
 *   a cycle no root reaches stays out, and a chain hanging off an orphan is
 *   orphaned with it;
 * - orphans: components not live (never a draft of a published component:
 *   it is judged through its published version), groups not live, positions
 *   in a group that is not live or with neither a component nor a page data
 *   property.
 *
 * With `gracePeriodSeconds` > 0 (this library's extension), a second
 * recursive walk, `recent`, goes up the chain from every group, position and
 * component created or updated within the grace period: position -> its
 * group, component -> the groups of the positions holding it and, for a
 * draft, its published version, group -> the components owning it. Each
 * record it reaches (the recent one and everything above it) is a live root:
 * it is not listed, nor is anything below it. So a record is kept out when it
 * or anything below it in the chain is recent, and an editor's component
 * placed a moment ago in an old, half-built page's group keeps that group
 * (and the rest of its chain) out of scan and delete.
 */
export async function scanOrphans(payload: Payload, req?: PayloadRequest): Promise<OrphanScan> {
  const rows = await runSql<{ what: string; slug: string; id: string }>(
    payload,
    scanSql(structureOf(payload), getOptions(payload.config).orphanedResources.gracePeriodSeconds),
    req,
  )
  const scan: OrphanScan = { componentGroups: [], componentPositions: [], components: [] }
  for (const row of rows) {
    if (row.what === 'group') scan.componentGroups.push(row.id)
    else if (row.what === 'position') scan.componentPositions.push(row.id)
    else scan.components.push({ slug: row.slug, id: row.id })
  }
  return scan
}

/** The scan as IRIs (what the report stores). */
export function scanIris(
  payload: Payload,
  scan: OrphanScan,
): { componentGroups: string[]; componentPositions: string[]; components: string[] } {
  const registry = getRegistry(payload.config)
  return {
    componentGroups: scan.componentGroups.map((g) => registry.itemIri('component_groups', g)),
    componentPositions: scan.componentPositions.map((p) => registry.itemIri('component_positions', p)),
    components: scan.components.map((c) => registry.itemIri(c.slug, c.id)),
  }
}

export function scanSql(structure: Structure, graceSeconds: number): Sql {
  if (!Number.isFinite(graceSeconds) || graceSeconds < 0)
    throw new Error(`orphan scan: gracePeriodSeconds must be a number of seconds, 0 or more (got ${graceSeconds})`)
  const grace = graceSeconds > 0
  // A literal (a checked number), not a parameter: the planner then estimates the timestamp conditions from
  // the columns' statistics (and their indexes) in every plan, generic or not.
  const cutoff = sql.raw(`(now() - make_interval(secs => ${graceSeconds}))`)
  /** Created or updated within the grace period (Payload keeps both timestamps, indexed, on every collection). */
  const recent = (alias: string) =>
    sql`(${sql.identifier(alias)}.updated_at > ${cutoff} OR ${sql.identifier(alias)}.created_at > ${cutoff})`
  /** A recent record is never listed itself (an empty position just made, for instance). */
  const old = (alias: string) =>
    grace
      ? sql` AND ${sql.identifier(alias)}.updated_at <= ${cutoff} AND ${sql.identifier(alias)}.created_at <= ${cutoff}`
      : sql``
  const component = positionComponentSql(structure, 'pr')

  // One step of the walk from a live record `l`, as a LATERAL subquery: one branch per edge kind, each an
  // index lookup gated on the record's kind (a one-time filter), so a step costs one or two lookups.
  const steps: SqlChunk[] = []
  if (component && structure.positionRels) {
    steps.push(sql`SELECT ${component.kind} AS kind, ${component.id} AS id FROM ${id(structure.positions)} p
      JOIN ${id(structure.positionRels)} pr ON pr.parent_id = p.id AND pr.path = 'component'
      WHERE l.kind = ${GROUP}::text AND p.${id(structure.positionGroupColumn)} = l.id AND ${component.id} IS NOT NULL`)
  }
  for (const c of structure.components) {
    if (c.rels && c.groupsColumn) {
      steps.push(sql`SELECT ${GROUP}::text, r.${id(c.groupsColumn)} FROM ${id(c.rels)} r
        WHERE l.kind = ${c.slug}::text AND r.parent_id = l.id AND r.path = 'componentGroups' AND r.${id(c.groupsColumn)} IS NOT NULL`)
    }
    if (c.twinColumn)
      steps.push(
        sql`SELECT ${c.slug}::text, d.id FROM ${id(c.table)} d WHERE l.kind = ${c.slug}::text AND d.${id(c.twinColumn)} = l.id`,
      )
  }
  if (steps.length === 0) steps.push(sql`SELECT NULL::text, NULL::uuid WHERE false`)

  const seeds: SqlChunk[] = []
  for (const owner of structure.owners) {
    seeds.push(
      sql`SELECT ${GROUP}::text, r.${id(owner.groupsColumn)} FROM ${id(owner.rels)} r WHERE r.path = 'componentGroups' AND r.${id(owner.groupsColumn)} IS NOT NULL`,
    )
  }
  for (const table of structure.pageData) {
    for (const property of table.direct) {
      seeds.push(
        sql`SELECT ${property.target}::text, t.${id(property.column)} FROM ${id(table.table)} t WHERE t.${id(property.column)} IS NOT NULL`,
      )
    }
    for (const property of table.viaRels) {
      for (const { target, column } of property.columns) {
        seeds.push(
          sql`SELECT ${target}::text, r.${id(column)} FROM ${id(property.rels)} r WHERE r.path = ${property.field} AND r.${id(column)} IS NOT NULL`,
        )
      }
    }
  }

  // The grace period: `recent` walks up the chain from each recent record; all it reaches are live roots.
  let recentCte = sql``
  if (grace) {
    const starts: SqlChunk[] = [
      sql`SELECT ${GROUP}::text AS kind, g.id FROM ${id(structure.groups)} g WHERE ${recent('g')}`,
      // A recent position stands for its group (the position itself is never listed while recent).
      sql`SELECT ${GROUP}::text, p.${id(structure.positionGroupColumn)} FROM ${id(structure.positions)} p WHERE ${recent('p')} AND p.${id(structure.positionGroupColumn)} IS NOT NULL`,
      ...structure.components.map((c) => sql`SELECT ${c.slug}::text, t.id FROM ${id(c.table)} t WHERE ${recent('t')}`),
    ]
    const up: SqlChunk[] = []
    for (const c of structure.components) {
      // group -> the components owning it
      if (c.rels && c.groupsColumn) {
        up.push(sql`SELECT ${c.slug}::text AS kind, r.parent_id AS id FROM ${id(c.rels)} r
          WHERE u.kind = ${GROUP}::text AND r.${id(c.groupsColumn)} = u.id AND r.path = 'componentGroups'`)
      }
      // component -> the groups of the positions holding it
      const column = structure.positionComponentColumns.find((pc) => pc.target === c.slug)?.column
      if (column && structure.positionRels) {
        up.push(sql`SELECT ${GROUP}::text, p.${id(structure.positionGroupColumn)} FROM ${id(structure.positionRels)} pr
          JOIN ${id(structure.positions)} p ON p.id = pr.parent_id
          WHERE u.kind = ${c.slug}::text AND pr.${id(column)} = u.id AND pr.path = 'component' AND p.${id(structure.positionGroupColumn)} IS NOT NULL`)
      }
      // draft -> its published version
      if (c.twinColumn) {
        up.push(sql`SELECT ${c.slug}::text, d.${id(c.twinColumn)} FROM ${id(c.table)} d
          WHERE u.kind = ${c.slug}::text AND d.id = u.id AND d.${id(c.twinColumn)} IS NOT NULL`)
      }
    }
    if (up.length === 0) up.push(sql`SELECT NULL::text, NULL::uuid WHERE false`)
    recentCte = sql`recent(kind, id) AS (
      ${sql.join(starts, sql` UNION `)}
      UNION
      SELECT n.kind, n.id FROM recent u CROSS JOIN LATERAL (${sql.join(up, sql` UNION ALL `)}) n
    ),
    `
    // Through an array: the planner's guess for a recursive CTE multiplies at every step (each branch of a
    // step counts at least one row), and `live` would multiply that guess again; an unnested array is
    // estimated at a few rows, so `live` is planned as without a grace period (measured: with `recent` read
    // directly, the final anti-join was sized for billions of rows and ran for minutes at 100,000 components).
    seeds.push(sql`SELECT u.kind, u.id FROM (SELECT array_agg(kind) AS kinds, array_agg(id) AS ids FROM recent) a
      CROSS JOIN LATERAL unnest(a.kinds, a.ids) AS u(kind, id)`)
  }
  if (seeds.length === 0) seeds.push(sql`SELECT NULL::text, NULL::uuid WHERE false`)

  // Ids are UUIDs, unique across tables: a record is live when its id is (one hash anti-join for all types).
  const records: SqlChunk[] = structure.components.map(
    (c) =>
      sql`SELECT 'component'::text AS what, ${c.slug}::text AS slug, t.id, t.created_at FROM ${id(c.table)} t
        WHERE true${c.twinColumn ? sql` AND t.${id(c.twinColumn)} IS NULL` : sql``}${old('t')}`,
  )
  records.push(
    sql`SELECT 'group'::text, 'component_groups'::text, g.id, g.created_at FROM ${id(structure.groups)} g WHERE true${old('g')}`,
  )
  // Positions: LEFT JOINs (hash joins), never an OR of NOT EXISTS (a subplan run per position).
  const holders =
    component && structure.positionRels
      ? sql`LEFT JOIN (SELECT DISTINCT pr.parent_id FROM ${id(structure.positionRels)} pr WHERE pr.path = 'component' AND ${component.id} IS NOT NULL) h ON h.parent_id = p.id`
      : sql`LEFT JOIN (SELECT NULL::uuid AS parent_id WHERE false) h ON false`

  return sql`WITH RECURSIVE ${recentCte}live(kind, id) AS (
      ${sql.join(seeds, sql` UNION `)}
      UNION
      SELECT n.kind, n.id FROM live l CROSS JOIN LATERAL (${sql.join(steps, sql` UNION ALL `)}) n
    )
    SELECT what, slug, id::text FROM (
      SELECT r.what, r.slug, r.id, r.created_at FROM (${sql.join(records, sql` UNION ALL `)}) r
        WHERE NOT EXISTS (SELECT 1 FROM live l WHERE l.id = r.id)
      UNION ALL
      SELECT 'position'::text, 'component_positions'::text, p.id, p.created_at FROM ${id(structure.positions)} p
        LEFT JOIN (SELECT DISTINCT l.id FROM live l WHERE l.kind = ${GROUP}::text) lg ON lg.id = p.${id(structure.positionGroupColumn)}
        ${holders}
        WHERE (lg.id IS NULL OR (p.${id(structure.pageDataPropertyColumn)} IS NULL AND h.parent_id IS NULL))${old('p')}
    ) o ORDER BY what, created_at, id`
}
