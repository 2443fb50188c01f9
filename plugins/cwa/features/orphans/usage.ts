import { runSql, sql, type SqlChunk } from '../../core/utils/sql.js'
import type { HydraContext } from '../../hydra/context.js'
import { notFound, violation, ViolationError } from '../../hydra/errors.js'
import { id, structureOf, uuidList } from './structure.js'

interface UsageRow {
  what: 'position' | 'pageData' | 'draft' | 'published'
  record: string
  kind: string | null
  grp: string | null
  owner_kind: string | null
  owner: string | null
  field: string | null
}

/**
 * GET /_/usage?iri=<component IRI> (this library's own): every place a
 * component is used, in one query: the positions holding it (with their
 * group and the page, layout or component owning that group), the page data
 * properties holding it, and its draft or published twin (the data of a
 * `ComponentUsage` node: the endpoint's output).
 */
export async function componentUsage(ctx: HydraContext, iri: string | null): Promise<Record<string, unknown>> {
  const parsed = iri ? ctx.registry.parseIri(iri) : null
  if (!iri) throw new ViolationError([violation('iri', 'The iri query parameter is required.', 'required')])
  if (!parsed?.id || parsed.resource.meta.kind !== 'component')
    throw new ViolationError([violation('iri', `"${iri}" is not a component IRI.`, 'invalid_iri')])
  const structure = structureOf(ctx.payload)
  const component = structure.components.find((c) => c.slug === parsed.resource.slug)!
  const target = uuidList([parsed.id])
  const branches: SqlChunk[] = []
  const positionColumn = structure.positionComponentColumns.find((c) => c.target === component.slug)
  if (positionColumn && structure.positionRels) {
    const owners = [
      ...structure.owners.map((o) => ({ slug: o.slug, rels: o.rels, column: o.groupsColumn })),
      ...structure.components.flatMap((c) =>
        c.rels && c.groupsColumn ? [{ slug: c.slug, rels: c.rels, column: c.groupsColumn }] : [],
      ),
    ]
    const ownerUnion = owners.length
      ? sql.join(
          owners.map(
            (o) =>
              sql`SELECT ${o.slug}::text AS kind, r.parent_id AS owner, r.${id(o.column)} AS grp FROM ${id(o.rels)} r WHERE r.path = 'componentGroups'`,
          ),
          sql` UNION ALL `,
        )
      : sql`SELECT NULL::text, NULL::uuid, NULL::uuid WHERE false`
    branches.push(sql`SELECT 'position'::text AS what, p.id::text AS record, NULL::text AS kind, p.${id(structure.positionGroupColumn)}::text AS grp,
        o.kind AS owner_kind, o.owner::text AS owner, p.${id(structure.pageDataPropertyColumn)}::text AS field
      FROM ${id(structure.positionRels)} pr JOIN ${id(structure.positions)} p ON p.id = pr.parent_id
      LEFT JOIN (${ownerUnion}) o ON o.grp = p.${id(structure.positionGroupColumn)}
      WHERE pr.path = 'component' AND pr.${id(positionColumn.column)} IN ${target}`)
  }
  for (const table of structure.pageData) {
    for (const property of table.direct.filter((p) => p.target === component.slug)) {
      branches.push(sql`SELECT 'pageData'::text, t.id::text, ${table.slug}::text, NULL::text, NULL::text, NULL::text, ${property.field}::text
        FROM ${id(table.table)} t WHERE t.${id(property.column)} IN ${target}`)
    }
    for (const property of table.viaRels) {
      for (const { column } of property.columns.filter((c) => c.target === component.slug)) {
        branches.push(sql`SELECT 'pageData'::text, r.parent_id::text, ${table.slug}::text, NULL::text, NULL::text, NULL::text, ${property.field}::text
          FROM ${id(property.rels)} r WHERE r.path = ${property.field} AND r.${id(column)} IN ${target}`)
      }
    }
  }
  if (component.twinColumn) {
    branches.push(
      sql`SELECT 'draft'::text, d.id::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text FROM ${id(component.table)} d WHERE d.${id(component.twinColumn)} IN ${target}`,
    )
    branches.push(sql`SELECT 'published'::text, t.${id(component.twinColumn)}::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text FROM ${id(component.table)} t
      WHERE t.id IN ${target} AND t.${id(component.twinColumn)} IS NOT NULL`)
  }
  branches.push(
    sql`SELECT 'self'::text, t.id::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text FROM ${id(component.table)} t WHERE t.id IN ${target}`,
  )
  const rows = await runSql<UsageRow | (Omit<UsageRow, 'what'> & { what: 'self' })>(
    ctx.payload,
    sql`${sql.join(branches, sql` UNION ALL `)} ORDER BY 1, 2`,
    ctx.req,
  )
  if (!rows.some((row) => row.what === 'self')) throw notFound()
  const iriOf = (slug: string, recordId: string) => ctx.registry.itemIri(slug, recordId)
  return {
    component: iriOf(component.slug, parsed.id),
    positions: rows
      .filter((row) => row.what === 'position')
      .map((row) => ({
        position: iriOf('component_positions', row.record),
        componentGroup: iriOf('component_groups', row.grp!),
        owner: row.owner_kind && row.owner ? iriOf(row.owner_kind, row.owner) : null,
        pageDataProperty: row.field,
      })),
    pageData: rows
      .filter((row) => row.what === 'pageData')
      .map((row) => ({ pageData: iriOf(row.kind!, row.record), property: row.field })),
    draft: rows.filter((row) => row.what === 'draft').map((row) => iriOf(component.slug, row.record))[0] ?? null,
    published:
      rows.filter((row) => row.what === 'published').map((row) => iriOf(component.slug, row.record))[0] ?? null,
  }
}
