import type { HydraContext } from './context.js'

/**
 * Which of these records of a type the caller can see, in one query: an id
 * the caller may not read names nothing, as far as the caller can tell (a
 * relation, a position named on create).
 */
export async function visibleIds(slug: string, ids: readonly string[], ctx: HydraContext): Promise<Set<string>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Set()
  const found = await ctx.payload.find({
    collection: slug,
    where: { id: { in: unique } },
    depth: 0,
    limit: unique.length,
    pagination: false,
    select: {},
    overrideAccess: false,
    req: ctx.req,
  })
  return new Set(found.docs.map((doc) => String((doc as { id: unknown }).id)))
}
