import type { HydraContext } from '../../hydra/context.js'
import { resolvePath } from '../../hydra/extensions/requestHooks.js'
import type { Resource } from '../../core/registry.js'
import { findOne } from '../../core/utils/findOne.js'
import { isDatabaseUnavailable, isTransientConflict } from '../../core/utils/databaseUnavailable.js'
import { dependsOn, dependsOnTheUnknown } from '../../core/utils/readDependencies.js'

export interface CurrentPageData {
  resource: Resource
  doc: Record<string, unknown>
}

/**
 * The page data record named by the `path` request header: a page data IRI,
 * or a site path that an extension resolves (a route pointing at page
 * data). Resolved once per request, with the caller's access. The answer
 * depends on the record (its properties name the components shown, its
 * publication decides whether it is seen), even where its body does not
 * name it: the resolution notes the record's IRI (a path's resolution notes
 * its own, routes/routeByPath.ts), so a write to it drops stored answers.
 *
 * A header that cannot be resolved shows no page data, as a header naming
 * nothing does. But the database down (or a transaction it rolled back for a
 * concurrent one) is not such a header: the read answers 503 as any other
 * read then. Any other error resolves to no page data, and the answer is
 * marked as one that must not be kept (dependsOnTheUnknown): it may have
 * missed what a later read finds, and no write would drop it.
 */
export async function currentPageData(ctx: HydraContext): Promise<CurrentPageData | null> {
  if (ctx.memo.has('currentPageData')) return ctx.memo.get('currentPageData') as CurrentPageData | null
  const result = await resolve(ctx).catch((error: unknown) => {
    if (isDatabaseUnavailable(error) || isTransientConflict(error)) throw error
    ctx.payload.logger.warn({ err: error }, 'The path request header could not be resolved: no page data shown')
    dependsOnTheUnknown()
    return null
  })
  ctx.memo.set('currentPageData', result)
  return result
}

async function resolve(ctx: HydraContext): Promise<CurrentPageData | null> {
  const header = ctx.headers.get('path')
  if (!header) return null
  const parsed = ctx.registry.parseIri(header)
  let slug: string | null = null
  let id: string | null = null
  if (parsed?.id && parsed.resource.meta.kind === 'pageData') {
    slug = parsed.resource.slug
    id = parsed.id
  } else if (header.startsWith('/')) {
    const found = await resolvePath(header, ctx)
    if (found) {
      slug = found.slug
      id = found.id
    }
  }
  const resource = slug ? ctx.registry.bySlug(slug) : undefined
  if (!resource || !id) return null
  const doc = await findOne(ctx.payload, {
    collection: resource.slug,
    where: { id: { equals: id } },
    overrideAccess: false,
    req: ctx.req,
  })
  // Noted even when the caller may not see it (yet): its publication changes the answer. By the stored id when
  // found (a header may spell a UUID in capitals), else as named and in lower case (what a UUID is stored as).
  for (const named of doc ? [String(doc.id)] : [id, id.toLowerCase()]) dependsOn(ctx.registry.itemIri(resource, named))
  return doc ? { resource, doc } : null
}
