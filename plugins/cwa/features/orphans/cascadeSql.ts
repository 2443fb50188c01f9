/** The queries of a delete cascade (cascade.ts): who owns a group, what a group holds, who holds a component. */
import { sql, type Sql, type SqlChunk } from '../../core/utils/sql.js'
import { type DeleteSet, idsOf } from './cascadeSet.js'
import { id, positionComponentSql, type Structure, uuidList } from './structure.js'

/** Groups (ids) owned by the layouts, pages and components of `set`. */
export function ownedGroupsSql(structure: Structure, set: DeleteSet): Sql {
  const branches: SqlChunk[] = []
  const owners = [
    ...structure.owners.map((o) => ({ slug: o.slug, rels: o.rels, column: o.groupsColumn })),
    ...structure.components.flatMap((c) =>
      c.rels && c.groupsColumn ? [{ slug: c.slug, rels: c.rels, column: c.groupsColumn }] : [],
    ),
  ]
  for (const owner of owners) {
    const ids = idsOf(set, owner.slug)
    if (ids.length === 0) continue
    branches.push(
      sql`SELECT r.${id(owner.column)}::text AS id FROM ${id(owner.rels)} r WHERE r.parent_id IN ${uuidList(ids)} AND r.path = 'componentGroups' AND r.${id(owner.column)} IS NOT NULL`,
    )
  }
  return branches.length > 0 ? sql.join(branches, sql` UNION ALL `) : sql`SELECT NULL::text AS id WHERE false`
}

/** Every owner of each group: (kind, owner id, group id). */
export function groupOwnersSql(structure: Structure, groupIds: string[]): Sql {
  const owners = [
    ...structure.owners.map((o) => ({ slug: o.slug, rels: o.rels, column: o.groupsColumn })),
    ...structure.components.flatMap((c) =>
      c.rels && c.groupsColumn ? [{ slug: c.slug, rels: c.rels, column: c.groupsColumn }] : [],
    ),
  ]
  return sql.join(
    owners.map(
      (o) =>
        sql`SELECT ${o.slug}::text AS kind, r.parent_id::text AS owner, r.${id(o.column)}::text AS grp FROM ${id(o.rels)} r WHERE r.${id(o.column)} IN ${uuidList(groupIds)} AND r.path = 'componentGroups'`,
    ),
    sql` UNION ALL `,
  )
}

export function positionsOfGroupsSql(structure: Structure, groupIds: string[]): Sql {
  const component = positionComponentSql(structure, 'pr')
  const kind = component ? component.kind : sql`NULL::text`
  const componentId = component ? sql`${component.id}::text` : sql`NULL::text`
  const join = structure.positionRels
    ? sql`LEFT JOIN ${id(structure.positionRels)} pr ON pr.parent_id = p.id AND pr.path = 'component'`
    : sql``
  return sql`SELECT p.id::text AS id, ${kind} AS kind, ${componentId} AS component FROM ${id(structure.positions)} p ${join}
    WHERE p.${id(structure.positionGroupColumn)} IN ${uuidList(groupIds)}`
}

/** Positions holding any of the components: (position, component, bound to a page data property). */
export function positionsOfComponentsSql(structure: Structure, componentIds: string[]): Sql {
  const component = positionComponentSql(structure, 'pr')
  if (!component || !structure.positionRels)
    return sql`SELECT NULL::text AS position, NULL::text AS component, false AS bound WHERE false`
  const list = uuidList(componentIds)
  const any = sql.join(
    structure.positionComponentColumns.map(({ column }) => sql`pr.${id(column)} IN ${list}`),
    sql` OR `,
  )
  return sql`SELECT p.id::text AS position, ${component.id}::text AS component, (p.${id(structure.pageDataPropertyColumn)} IS NOT NULL) AS bound
    FROM ${id(structure.positionRels)} pr JOIN ${id(structure.positions)} p ON p.id = pr.parent_id
    WHERE pr.path = 'component' AND (${any})`
}

/** Page data records holding any of the components in a component property: (kind, holder id, component id). */
export function pageDataHoldersSql(structure: Structure, componentIds: string[]): Sql | null {
  const list = uuidList(componentIds)
  const branches: SqlChunk[] = []
  for (const table of structure.pageData) {
    for (const property of table.direct) {
      branches.push(
        sql`SELECT ${table.slug}::text AS kind, t.id::text AS holder, t.${id(property.column)}::text AS component FROM ${id(table.table)} t WHERE t.${id(property.column)} IN ${list}`,
      )
    }
    for (const property of table.viaRels) {
      for (const { column } of property.columns) {
        branches.push(
          sql`SELECT ${table.slug}::text AS kind, r.parent_id::text AS holder, r.${id(column)}::text AS component FROM ${id(property.rels)} r WHERE r.path = ${property.field} AND r.${id(column)} IN ${list}`,
        )
      }
    }
  }
  return branches.length > 0 ? sql.join(branches, sql` UNION ALL `) : null
}

/** Components held by the page data records of `set`: (kind, component id). */
export function pageDataComponentsSql(structure: Structure, set: DeleteSet): Sql | null {
  const branches: SqlChunk[] = []
  for (const table of structure.pageData) {
    const ids = idsOf(set, table.slug)
    if (ids.length === 0) continue
    for (const property of table.direct) {
      branches.push(
        sql`SELECT ${property.target}::text AS kind, t.${id(property.column)}::text AS component FROM ${id(table.table)} t WHERE t.id IN ${uuidList(ids)} AND t.${id(property.column)} IS NOT NULL`,
      )
    }
    for (const property of table.viaRels) {
      for (const { target, column } of property.columns) {
        branches.push(
          sql`SELECT ${target}::text AS kind, r.${id(column)}::text AS component FROM ${id(property.rels)} r WHERE r.parent_id IN ${uuidList(ids)} AND r.path = ${property.field} AND r.${id(column)} IS NOT NULL`,
        )
      }
    }
  }
  return branches.length > 0 ? sql.join(branches, sql` UNION ALL `) : null
}
