import type { Payload, PayloadRequest, SelectType, Where } from 'payload'

/**
 * An internal lookup straight through the database adapter: no access
 * control, hooks or field traversal, so a few milliseconds cheaper than the
 * Local API per call. Only for service-side decisions (twin dates, location
 * counts) whose rows never reach a caller as they are.
 */
export async function internalFind(
  payload: Payload,
  args: { collection: string; where: Where; select?: SelectType; limit?: number; req?: PayloadRequest },
): Promise<Array<Record<string, unknown>>> {
  const result = await payload.db.find({
    collection: args.collection,
    where: args.where,
    select: args.select,
    limit: args.limit ?? 0,
    pagination: false,
    req: args.req,
  })
  return result.docs as Array<Record<string, unknown>>
}
