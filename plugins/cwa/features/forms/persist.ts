import { dataFields } from '../../core/registry.js'
import type { FormSuccessListener } from './types.js'

/**
 * The built-in persisting success listener: stores the submitted data as a
 * record of `collection` (only the fields that collection has). The form's
 * submit path is the write's authorization, so the collection's own access
 * (typically admin only) does not apply; its validation does.
 */
export function persistSubmission(collection: string): FormSuccessListener {
  return async ({ ctx, data }) => {
    const config = ctx.payload.collections[collection]?.config
    if (!config) throw new Error(`persistSubmission: unknown collection ${collection}`)
    const names = new Set(dataFields(config.fields).map((f) => f.name))
    const record = Object.fromEntries(Object.entries(data).filter(([name]) => names.has(name)))
    await ctx.payload.create({
      collection,
      data: record,
      req: ctx.req,
      overrideAccess: true,
      depth: 0,
    })
  }
}
