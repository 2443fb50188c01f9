import { relationId } from '../../core/utils/relations'
import { dataFields } from '../../core/registry'
import type { Doc, PublishContext } from './context'

/**
 * Points every reference to `fromId` (component positions, page data
 * properties, and any other relationship to this type in any collection:
 * routes and parents for page data) at `toId` instead.
 */
export async function moveReferences(ctx: PublishContext, fromId: string, toId: string): Promise<void> {
  for (const config of ctx.payload.config.collections) {
    for (const field of dataFields(config.fields)) {
      if (field.type !== 'relationship' && field.type !== 'upload') continue
      if (config.slug === ctx.slug && field.name === ctx.names.publishedResource) continue
      const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo]
      if (!targets.includes(ctx.slug as never)) continue
      const polymorphic = Array.isArray(field.relationTo)
      const where = polymorphic
        ? { and: [{ [`${field.name}.relationTo`]: { equals: ctx.slug } }, { [`${field.name}.value`]: { equals: fromId } }] }
        : { [field.name]: { equals: fromId } }
      const holders = await ctx.payload.find({
        collection: config.slug as never,
        where: (('hasMany' in field && field.hasMany) ? { [field.name]: { in: [fromId] } } : where) as never,
        depth: 0,
        pagination: false,
        select: { [field.name]: true } as never,
        overrideAccess: true,
        req: ctx.req,
      })
      for (const holder of holders.docs as Doc[]) {
        const swap = (value: unknown) => {
          if (polymorphic) {
            const v = value as { relationTo?: string; value?: unknown } | null
            return v && v.relationTo === ctx.slug && relationId(v.value) === fromId ? { relationTo: ctx.slug, value: toId } : v
          }
          return relationId(value) === fromId ? toId : value
        }
        const current = holder[field.name]
        const next = Array.isArray(current) ? current.map(swap) : swap(current)
        await ctx.payload.update({
          collection: config.slug as never,
          id: holder.id as string,
          data: { [field.name]: next } as never,
          depth: 0,
          overrideAccess: true,
          req: ctx.req,
        })
      }
    }
  }
}
