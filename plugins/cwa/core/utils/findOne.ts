import type { Payload, PayloadRequest, Where } from 'payload'

/** One record (depth 0) through the Local API, or null. */
export async function findOne(
  payload: Payload,
  args: {
    collection: string
    where: Where
    req?: PayloadRequest
    overrideAccess: boolean
    select?: Record<string, true>
  },
): Promise<Record<string, unknown> | null> {
  const found = await payload.find({
    collection: args.collection,
    where: args.where,
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: args.overrideAccess,
    req: args.req,
    ...(args.select ? { select: args.select } : {}),
  })
  return (found.docs[0] as Record<string, unknown> | undefined) ?? null
}
