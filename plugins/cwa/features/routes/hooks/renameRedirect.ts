import type { CollectionAfterChangeHook, CollectionBeforeChangeHook, CollectionSlug, PayloadRequest } from 'payload'
import { findOne } from '../../../core/utils/findOne.js'

/**
 * A renamed route leaves its old path behind as a redirect to it, on every
 * API (JSON-LD, Payload's REST and GraphQL, the admin panel), as route
 * generation does for a record's old route: a visitor's bookmark or a
 * search engine's link keeps working. The redirect is written in the
 * rename's transaction and keeps the route's own `liveAt` (an offline
 * route's old path does not go online to announce the new one).
 *
 * Renaming back to a path where a redirect to this same route sits takes
 * that redirect back (it is removed; routes that redirected to it now
 * redirect to this route) instead of refusing the path as taken.
 *
 * A cascading rename (PATCH with cascadeChildPaths) writes the redirects
 * of the whole subtree itself and turns these hooks off for its writes
 * (withoutRenameRedirects).
 */

/** A string key: Payload copies req.context by its string keys only. */
const OFF = 'cwaRoutesNoRenameRedirect'

const isOff = (req: PayloadRequest) => (req.context as Record<string, unknown>)[OFF] === true

/** Runs `write` with the rename redirects off (the caller writes its own). */
export async function withoutRenameRedirects<T>(req: PayloadRequest, write: () => Promise<T>): Promise<T> {
  const context = req.context as Record<string, unknown>
  const before = context[OFF]
  context[OFF] = true
  try {
    return await write()
  } finally {
    if (before === undefined) delete context[OFF]
    else context[OFF] = before
  }
}

const renamed = (from: unknown, to: unknown): to is string => typeof to === 'string' && to !== '' && to !== from

export const reclaimOwnRedirectHook: CollectionBeforeChangeHook = async ({ data, originalDoc, operation, req }) => {
  if (operation !== 'update' || !originalDoc || isOff(req) || !renamed(originalDoc.path, data?.path)) return data
  const self = String(originalDoc.id)
  const own = await findOne(req.payload, {
    collection: 'routes',
    where: { and: [{ path: { equals: data.path } }, { redirect: { equals: self } }] },
    overrideAccess: true,
    req,
  })
  if (!own) return data
  const write = { collection: 'routes' as CollectionSlug, depth: 0, overrideAccess: true, req } as const
  await req.payload.update({ ...write, where: { redirect: { equals: own.id } }, data: { redirect: self } })
  await req.payload.delete({ ...write, id: String(own.id) })
  return data
}

export const renameRedirectHook: CollectionAfterChangeHook = async ({ doc, previousDoc, operation, req }) => {
  if (operation !== 'update' || !previousDoc || isOff(req) || !renamed(previousDoc.path, doc.path)) return doc
  const from = String(previousDoc.path)
  const redirect = await req.payload.create({
    collection: 'routes' as CollectionSlug,
    data: { path: from, redirect: doc.id, liveAt: previousDoc.liveAt ?? null },
    depth: 0,
    overrideAccess: true,
    req,
  })
  req.payload.logger.info({ route: doc.id, from, to: doc.path, redirect: redirect.id }, 'route renamed: redirect left')
  return doc
}
