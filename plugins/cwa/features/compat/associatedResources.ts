import type { HydraContext } from '../../hydra/context.js'
import type { JsonLdObject } from '../../hydra/extension.js'
import { isAdmin } from '../../core/roles.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'

/**
 * `associatedResources` of a route, for admins, as the module's route list
 * (`/_cwa/routes`) shows it: what the route leads to, by name (`page`: the
 * page's title or reference; `pageData` and `pageDataType`: the record's
 * title and its type's short name; `redirect`: the target route's path).
 * Loaded for a batch of routes in one query per kind named.
 */

type Doc = Record<string, unknown>
const MEMO = 'compat:associatedResources'

interface Names {
  pages: Map<string, string>
  pageData: Map<string, string>
  routes: Map<string, string>
}

async function namesOf(slug: string, ids: string[], select: string[], ctx: HydraContext): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const found = await ctx.payload.find({
    collection: slug,
    where: { id: { in: ids } },
    depth: 0,
    limit: ids.length,
    pagination: false,
    select: Object.fromEntries(select.map((name) => [name, true])),
    overrideAccess: false,
    req: ctx.req,
  })
  return new Map(
    found.docs.map((doc) => [
      String((doc as Doc).id),
      String(select.map((name) => (doc as Doc)[name]).find((v) => typeof v === 'string' && v !== '') ?? ''),
    ]),
  )
}

export async function prepareAssociated(docs: Doc[], ctx: HydraContext): Promise<void> {
  if (!isAdmin(ctx.user, ctx.options.roleHierarchy)) return
  const pages = docs.map((doc) => relationId(doc.page)).filter((id): id is string => Boolean(id))
  const redirects = docs.map((doc) => relationId(doc.redirect)).filter((id): id is string => Boolean(id))
  const bySlug = new Map<string, string[]>()
  for (const doc of docs) {
    const id = relationId(doc.pageData)
    const slug = id ? relationCollection(doc.pageData) : null
    if (id && slug) bySlug.set(slug, [...(bySlug.get(slug) ?? []), id])
  }
  const pageData = new Map<string, string>()
  for (const [slug, ids] of bySlug)
    for (const [id, name] of await namesOf(slug, ids, ['title'], ctx)) pageData.set(id, name)
  const names: Names = {
    pages: await namesOf('pages', pages, ['title', 'reference'], ctx),
    pageData,
    routes: await namesOf('routes', redirects, ['path'], ctx),
  }
  ctx.memo.set(MEMO, names)
}

export function addAssociated(item: JsonLdObject, doc: Doc, ctx: HydraContext): void {
  const names = ctx.memo.get(MEMO) as Names | undefined
  if (!names) return
  const out: Record<string, string> = {}
  const redirect = relationId(doc.redirect)
  const page = relationId(doc.page)
  const data = relationId(doc.pageData)
  if (redirect) out.redirect = names.routes.get(redirect) ?? redirect
  if (page) out.page = names.pages.get(page) || page
  if (data) {
    out.pageData = names.pageData.get(data) || data
    const slug = relationCollection(doc.pageData)
    const type = slug ? ctx.registry.bySlug(slug) : undefined
    if (type) out.pageDataType = type.meta.shortName
  }
  item.associatedResources = out
}
