import type { Payload } from 'payload'
import { dataFields, getRegistry } from '../../core/registry.js'
import { columnNameOf, relsColumnOf, relsTableOf, requireTableName } from '../../core/utils/schema.js'
import { sql, type SqlChunk } from '../../core/utils/sql.js'
import { publishableOf } from '../publishable/index.js'

/** A component type as the scan and the cascade see it. */
export interface ComponentTable {
  slug: string
  table: string
  /** Its rels table's column of owned groups (path `componentGroups`), or null when it owns none. */
  rels: string | null
  groupsColumn: string | null
  /** The draft's pointer to its published twin (publishable types), else null. */
  twinColumn: string | null
}

/** A page data component property stored in the record's own table (one target type). */
export interface DirectProperty {
  field: string
  column: string
  target: string
}

/** A page data component property stored in its rels table (polymorphic, parent-class typed, or hasMany). */
export interface RelsProperty {
  field: string
  rels: string
  /** One column per target type. */
  columns: Array<{ target: string; column: string }>
}

export interface PageDataTable {
  slug: string
  table: string
  direct: DirectProperty[]
  viaRels: RelsProperty[]
}

/** The groups' owners kept in rels tables: layouts and pages (components are listed with the components). */
export interface GroupOwnerTable {
  slug: string
  table: string
  rels: string
  groupsColumn: string
}

/**
 * Table and column names of the component tree, read from the database
 * adapter (table prefix, rels tables, one column per polymorphic target), so
 * the raw SQL of the scan and the cascade follows whatever the config declares.
 */
export interface Structure {
  groups: string
  positions: string
  positionGroupColumn: string
  positionRels: string | null
  positionComponentColumns: Array<{ target: string; column: string }>
  pageDataPropertyColumn: string
  owners: GroupOwnerTable[]
  components: ComponentTable[]
  pageData: PageDataTable[]
  pages: string
  pageLayoutColumn: string
}

const cache = new WeakMap<Payload, Structure>()

export function structureOf(payload: Payload): Structure {
  let structure = cache.get(payload)
  if (!structure) {
    structure = readStructure(payload)
    cache.set(payload, structure)
  }
  return structure
}

function readStructure(payload: Payload): Structure {
  const registry = getRegistry(payload.config)
  const tableName = (slug: string): string => requireTableName(payload, slug)
  const column = (slug: string, field: string): string | null => columnNameOf(payload, slug, field)
  const relsOf = (slug: string): string | null => relsTableOf(payload, slug)
  const relsColumn = (slug: string, target: string): string | null =>
    relsColumnOf(payload, slug, target)?.column ?? null
  const required = (value: string | null, what: string): string => {
    if (!value) throw new Error(`The orphan scan found no ${what} in the database schema`)
    return value
  }

  const componentSlugs = registry.ofKind('component').map((r) => r.slug)
  const components: ComponentTable[] = registry.ofKind('component').map((resource) => {
    const groupsColumn = relsColumn(resource.slug, 'component_groups')
    const twin = publishableOf(resource)
    return {
      slug: resource.slug,
      table: tableName(resource.slug),
      rels: groupsColumn ? relsOf(resource.slug) : null,
      groupsColumn,
      twinColumn: twin ? column(resource.slug, twin.publishedResource) : null,
    }
  })
  const owners: GroupOwnerTable[] = ['layouts', 'pages'].flatMap((slug) => {
    const groupsColumn = relsColumn(slug, 'component_groups')
    return groupsColumn ? [{ slug, table: tableName(slug), rels: relsOf(slug)!, groupsColumn }] : []
  })
  const pageData: PageDataTable[] = registry.ofKind('pageData').map((resource) => {
    const direct: DirectProperty[] = []
    const viaRels: RelsProperty[] = []
    for (const field of dataFields(resource.collection.fields)) {
      if (field.type !== 'relationship' && field.type !== 'upload') continue
      const targets = (Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]).filter((t) =>
        componentSlugs.includes(t),
      )
      if (targets.length === 0) continue
      const own =
        !Array.isArray(field.relationTo) && !('hasMany' in field && field.hasMany)
          ? column(resource.slug, field.name)
          : null
      if (own) {
        direct.push({ field: field.name, column: own, target: targets[0]! })
        continue
      }
      const rels = relsOf(resource.slug)
      const columns = targets.flatMap((target) => {
        const c = relsColumn(resource.slug, target)
        return c ? [{ target, column: c }] : []
      })
      if (rels && columns.length > 0) viaRels.push({ field: field.name, rels, columns })
    }
    return { slug: resource.slug, table: tableName(resource.slug), direct, viaRels }
  })
  return {
    groups: tableName('component_groups'),
    positions: tableName('component_positions'),
    positionGroupColumn: required(
      column('component_positions', 'componentGroup'),
      'component group column of positions',
    ),
    positionRels: relsOf('component_positions'),
    positionComponentColumns: componentSlugs.flatMap((target) => {
      const c = relsColumn('component_positions', target)
      return c ? [{ target, column: c }] : []
    }),
    pageDataPropertyColumn: required(column('component_positions', 'pageDataProperty'), 'pageDataProperty column'),
    owners,
    components,
    pageData,
    pages: tableName('pages'),
    pageLayoutColumn: required(column('pages', 'layout'), 'layout column of pages'),
  }
}

export const id = (name: string): SqlChunk => sql.identifier(name)

/** The kind used for groups in the walks (component kinds are their slugs). */
export const GROUP = '#group'

/** `(SELECT unnest($1::uuid[]))`: a list of ids as one parameter (any length). An empty list matches nothing. */
export function uuidList(ids: readonly string[]): SqlChunk {
  return sql`(SELECT unnest(${`{${ids.join(',')}}`}::uuid[]))`
}

/** The component a position holds: its kind (slug) and id, as SQL over the rels row aliased `alias`. */
export function positionComponentSql(structure: Structure, alias: string): { kind: SqlChunk; id: SqlChunk } | null {
  const columns = structure.positionComponentColumns
  if (columns.length === 0) return null
  const a = sql.identifier(alias)
  return {
    kind: sql`CASE ${sql.join(
      columns.map(({ target, column }) => sql`WHEN ${a}.${id(column)} IS NOT NULL THEN ${target}::text`),
      sql` `,
    )} END`,
    id:
      columns.length === 1
        ? sql`${a}.${id(columns[0]!.column)}`
        : sql`COALESCE(${sql.join(
            columns.map(({ column }) => sql`${a}.${id(column)}`),
            sql`, `,
          )})`,
  }
}
