import type { CollectionConfig, Field } from 'payload'
import { relationId } from '../../core/utils/relations.js'
import { dataFields } from '../../core/registry.js'
import { columnNameOf, relsColumnOf, tableNameOf } from '../../core/utils/schema.js'
import { runBuiltSql, sql, type Sql } from '../../core/utils/sql.js'
import type { Doc, PublishContext } from './context.js'

type ReferencingField = { config: CollectionConfig; field: Field & { name: string; relationTo: string | string[] } }

/** Every top-level relationship or upload field of any collection that can point at `slug` (a twin's own link aside). */
function referencingFields(ctx: PublishContext): ReferencingField[] {
  const out: ReferencingField[] = []
  for (const config of ctx.payload.config.collections) {
    for (const field of dataFields(config.fields)) {
      if (field.type !== 'relationship' && field.type !== 'upload') continue
      if (config.slug === ctx.slug && field.name === ctx.names.publishedResource) continue
      const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]
      if (targets.includes(ctx.slug))
        out.push({ config: config as CollectionConfig, field: field as ReferencingField['field'] })
    }
  }
  return out
}

/**
 * One probe per place a reference to the type can be stored (the holder's
 * own column, or its rels table's column of the type), or null when a place
 * is not known from the adapter's schema (a localized field, say).
 */
function probes(ctx: PublishContext, fields: ReferencingField[]): Sql[] | null {
  const out = new Map<string, Sql>()
  for (const { config, field } of fields) {
    const inRels = Array.isArray(field.relationTo) || ('hasMany' in field && field.hasMany)
    if (inRels) {
      const rels = relsColumnOf(ctx.payload, config.slug, ctx.slug)
      if (!rels) return null
      out.set(
        `${rels.table}.${rels.column}`,
        sql`SELECT 1 FROM ${sql.identifier(rels.table)} WHERE ${sql.identifier(rels.column)} = ${sql.placeholder('id')}`,
      )
    } else {
      const table = tableNameOf(ctx.payload, config.slug)
      const column = columnNameOf(ctx.payload, config.slug, field.name)
      if (!table || !column) return null
      out.set(
        `${table}.${column}`,
        sql`SELECT 1 FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${sql.placeholder('id')}`,
      )
    }
  }
  return [...out.values()]
}

/**
 * Whether anything may point at the record: one statement over every place
 * a reference can be stored (most drafts are referenced by nothing, and
 * looking through Payload costs a read per field). True when unsure.
 */
async function mayBeReferenced(ctx: PublishContext, fields: ReferencingField[], id: string): Promise<boolean> {
  const list = probes(ctx, fields)
  if (list === null) return true
  if (list.length === 0) return false
  const rows = await runBuiltSql(
    ctx.payload,
    `publishable:referenced:${ctx.slug}`,
    () => sql`${sql.join(list, sql` UNION ALL `)} LIMIT 1`,
    { id },
    ctx.req,
  )
  return rows.length > 0
}

/**
 * Points every reference to `fromId` (component positions, page data
 * properties, and any other relationship to this type in any collection:
 * routes and parents for page data) at `toId` instead.
 */
export async function moveReferences(ctx: PublishContext, fromId: string, toId: string): Promise<void> {
  const fields = referencingFields(ctx)
  if (!(await mayBeReferenced(ctx, fields, fromId))) return
  for (const { config, field } of fields) {
    const polymorphic = Array.isArray(field.relationTo)
    const where = polymorphic
      ? {
          and: [
            { [`${field.name}.relationTo`]: { equals: ctx.slug } },
            { [`${field.name}.value`]: { equals: fromId } },
          ],
        }
      : { [field.name]: { equals: fromId } }
    const holders = await ctx.payload.find({
      collection: config.slug,
      where: 'hasMany' in field && field.hasMany ? { [field.name]: { in: [fromId] } } : where,
      depth: 0,
      pagination: false,
      select: { [field.name]: true },
      overrideAccess: true,
      req: ctx.req,
    })
    for (const holder of holders.docs as Doc[]) {
      const swap = (value: unknown) => {
        if (polymorphic) {
          const v = value as { relationTo?: string; value?: unknown } | null
          return v && v.relationTo === ctx.slug && relationId(v.value) === fromId
            ? { relationTo: ctx.slug, value: toId }
            : v
        }
        return relationId(value) === fromId ? toId : value
      }
      const current = holder[field.name]
      const next = Array.isArray(current) ? current.map(swap) : swap(current)
      await ctx.payload.update({
        collection: config.slug,
        id: holder.id as string,
        data: { [field.name]: next },
        depth: 0,
        overrideAccess: true,
        req: ctx.req,
      })
    }
  }
}
