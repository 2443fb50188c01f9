import type { CollectionSlug } from 'payload'
import { dataFields, type Resource } from '../../core/registry.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import type { HydraContext } from '../../hydra/context.js'
import { notFound, violation, ViolationError } from '../../hydra/errors.js'
import { mainFieldOf, typeLabel } from './blockWrites.js'
import { typeIconOf } from '../../core/admin/typeIcons.js'
import { pageBlocks, type PageBlock } from './blocks.js'
import { publishableOf } from '../publishable/index.js'
import { fieldLabel } from '../adminTitles/index.js'
import { componentTitle } from './title.js'
import type { BuilderComponent, BuilderOwner, PageBuilderView } from './builderView.js'
import { pageRouteOf } from './pageRoute.js'

export type { BuilderComponent, BuilderGroup, BuilderOwner, BuilderPosition, PageBuilderView } from './builderView.js'

type Doc = Record<string, unknown> & { id: string }

/**
 * Component types the add-component choice offers in a group (contract:
 * explicit-allow-only): the group's allowedComponents when it names any,
 * else every type but the explicit-allow-only ones.
 */
export function addableTypes(ctx: HydraContext, allowed: string[] | null): Resource[] {
  const named = new Set((allowed ?? []).map((iri) => ctx.registry.parseIri(iri)?.resource.slug).filter(Boolean))
  return ctx.registry
    .all()
    .filter((r) => r.meta.kind === 'component')
    .filter((r) => (named.size > 0 ? named.has(r.slug) : !r.meta.explicitAllowOnly))
}

async function findById(ctx: HydraContext, slug: string, id: string): Promise<Doc | null> {
  return (await ctx.payload
    .findByID({ collection: slug as CollectionSlug, id, depth: 0, req: ctx.req, disableErrors: true })
    .catch(() => null)) as Doc | null
}

/** Components by slug and id, each collection read once. */
async function loadComponents(
  ctx: HydraContext,
  refs: Array<{ slug: string; id: string }>,
): Promise<Map<string, BuilderComponent>> {
  const out = new Map<string, BuilderComponent>()
  const bySlug = new Map<string, Set<string>>()
  for (const ref of refs) bySlug.set(ref.slug, (bySlug.get(ref.slug) ?? new Set()).add(ref.id))
  for (const [slug, ids] of bySlug) {
    const resource = ctx.registry.bySlug(slug)
    if (!resource) continue
    const { docs } = await ctx.payload.find({
      collection: slug as CollectionSlug,
      where: { id: { in: [...ids] } },
      depth: 0,
      pagination: false,
      req: ctx.req,
    })
    for (const doc of docs as Doc[]) {
      out.set(`${slug}:${doc.id}`, {
        '@id': ctx.registry.itemIri(slug, doc.id),
        slug,
        id: String(doc.id),
        type: resource.meta.shortName,
        label: typeLabel(ctx, resource),
        icon: typeIconOf(slug, resource.meta),
        title: componentTitle(resource, doc),
      })
    }
  }
  return out
}

/**
 * A dynamic position's binding in the editor's words: the page data type as the admin names it and the property's
 * label as its edit view shows it ("Blog article: Html Content" for an unlabelled BlogArticleData.htmlContent); null on a position that is not dynamic.
 */
function bindingLabel(ctx: HydraContext, position: Doc): string | null {
  const [type, property] = [position.pageDataClass, position.pageDataProperty]
  if (typeof property !== 'string' || !property) return null
  const resource = ctx.registry.all().find((r) => r.meta.shortName === type)
  if (!resource) return `${String(type ?? '')}: ${fieldLabel(undefined, property)}`
  const field = dataFields(resource.collection.fields).find((f) => f.name === property)
  return `${typeLabel(ctx, resource)}: ${fieldLabel(field, property)}`
}

/** The groups of a page or layout (in the owner's order), each with its positions by sortValue. */
async function ownerView(
  ctx: HydraContext,
  slug: 'pages' | 'layouts',
  doc: Doc,
  pageData: { resource: Resource; doc: Doc } | null,
): Promise<BuilderOwner> {
  const groupIds = ((doc.componentGroups as unknown[]) ?? [])
    .map((g) => relationId(g))
    .filter((g): g is string => Boolean(g))
  const groups = groupIds.length
    ? ((
        await ctx.payload.find({
          collection: 'component_groups',
          where: { id: { in: groupIds } },
          depth: 0,
          pagination: false,
          req: ctx.req,
        })
      ).docs as Doc[])
    : []
  const positions = groupIds.length
    ? ((
        await ctx.payload.find({
          collection: 'component_positions',
          where: { componentGroup: { in: groupIds } },
          sort: 'sortValue',
          depth: 0,
          pagination: false,
          req: ctx.req,
        })
      ).docs as Doc[])
    : []
  /** The component a dynamic position resolves to on this page data (its property's value), else null. */
  const resolvedRef = (position: Doc): { slug: string; id: string } | null => {
    if (!pageData || typeof position.pageDataProperty !== 'string') return null
    const field = dataFields(pageData.resource.collection.fields).find((f) => f.name === position.pageDataProperty)
    const id = relationId(pageData.doc[position.pageDataProperty])
    return id && field && field.type === 'relationship' && typeof field.relationTo === 'string'
      ? { slug: field.relationTo, id }
      : null
  }
  const placedRef = (position: Doc) =>
    relationId(position.component)
      ? { slug: relationCollection(position.component)!, id: relationId(position.component)! }
      : null
  const refs = positions.flatMap((p) =>
    [placedRef(p), resolvedRef(p)].filter((r): r is { slug: string; id: string } => r !== null),
  )
  const components = await loadComponents(ctx, refs)
  const byId = new Map(groups.map((g) => [String(g.id), g]))
  return {
    '@id': ctx.registry.itemIri(slug, doc.id),
    slug,
    id: String(doc.id),
    type: slug === 'pages' ? 'Page' : 'Layout',
    reference: typeof doc.reference === 'string' ? doc.reference : null,
    groups: groupIds.flatMap((groupId) => {
      const group = byId.get(groupId)
      if (!group) return []
      const allowed = Array.isArray(group.allowedComponents) ? (group.allowedComponents as string[]) : null
      return [
        {
          '@id': ctx.registry.itemIri('component_groups', group.id),
          id: String(group.id),
          reference: String(group.reference),
          location: typeof group.location === 'string' ? group.location : null,
          allowedComponents: allowed
            ? allowed.map((iri) => ctx.registry.parseIri(iri)?.resource.collectionIri ?? iri)
            : null,
          addable: addableTypes(ctx, allowed).map((r) => ({
            '@id': r.collectionIri,
            slug: r.slug,
            type: r.meta.shortName,
            label: typeLabel(ctx, r),
            icon: typeIconOf(r.slug, r.meta),
            main: mainFieldOf(r),
            drafts: publishableOf(r) !== null,
          })),
          positions: positions
            .filter((p) => relationId(p.componentGroup) === groupId)
            .map((p) => {
              const lookup = (ref: { slug: string; id: string } | null) =>
                ref ? (components.get(`${ref.slug}:${ref.id}`) ?? null) : null
              const component = lookup(placedRef(p))
              const target = lookup(resolvedRef(p))
              return {
                '@id': ctx.registry.itemIri('component_positions', p.id),
                id: String(p.id),
                sortValue: Number(p.sortValue ?? 0),
                component,
                pageDataClass: typeof p.pageDataClass === 'string' && p.pageDataClass ? p.pageDataClass : null,
                pageDataProperty:
                  typeof p.pageDataProperty === 'string' && p.pageDataProperty ? p.pageDataProperty : null,
                binding: bindingLabel(ctx, p),
                resolvesTo: target,
              }
            }),
        },
      ]
    }),
  }
}

/**
 * GET /_/page_builder?iri=<page, layout or page data IRI>: what the page
 * builder shows, in one answer: the layout and the page (for page data, its
 * template page) with each group's positions in order, each component named
 * by componentTitle, and dynamic positions resolved on page data.
 */
export async function pageBuilderView(ctx: HydraContext, iri: string | null): Promise<PageBuilderView> {
  if (!iri) throw new ViolationError([violation('iri', 'The iri query parameter is required.', 'required')])
  const parsed = ctx.registry.parseIri(iri)
  const kind = parsed?.resource.meta.kind
  if (!parsed?.id || !(parsed.resource.slug === 'pages' || parsed.resource.slug === 'layouts' || kind === 'pageData')) {
    throw new ViolationError([
      violation('iri', `"${iri}" is not the IRI of a page, a layout or page data.`, 'invalid_iri'),
    ])
  }
  const doc = await findById(ctx, parsed.resource.slug, parsed.id)
  if (!doc) throw notFound()
  const owner = {
    '@id': ctx.registry.itemIri(parsed.resource, doc.id),
    slug: parsed.resource.slug,
    id: String(doc.id),
    type: parsed.resource.meta.shortName,
  }
  const blocks = await pageBlocks(ctx, { resource: parsed.resource, doc })
  const count = (list: PageBlock[]) => list.filter((b) => b.pending).length
  const body = {
    owner,
    pageData: blocks.pageData
      ? {
          '@id': blocks.pageData['@id'],
          state: blocks.pageData.state,
          pending: blocks.pageData.pending?.iri ?? null,
          scheduledAt: blocks.pageData.scheduledAt,
        }
      : null,
    changes: { page: count(blocks.page) + (blocks.pageData?.pending ? 1 : 0), layout: count(blocks.layout) },
    route: await pageRouteOf(ctx, { resource: parsed.resource, doc }),
  }
  const states = new Map([...blocks.page, ...blocks.layout].map((b) => [b['@id'], b]))
  // A component the view's states do not list still says whether its type keeps drafts.
  const typeKeepsDrafts = (slug: string) => {
    const resource = ctx.registry.bySlug(slug)
    return resource ? publishableOf(resource) !== null : false
  }
  const annotate = (view: BuilderOwner): BuilderOwner => {
    const stateOf = (c: BuilderComponent | null) => {
      const block = c ? states.get(c['@id']) : undefined
      return c
        ? {
            ...c,
            state: block?.state ?? 'live',
            pending: block?.pending?.iri ?? null,
            scheduledAt: block?.scheduledAt ?? null,
            main: block?.main ?? null,
            drafts: block?.drafts ?? typeKeepsDrafts(c.slug),
            title: block?.title ?? c.title,
          }
        : null
    }
    return {
      ...view,
      groups: view.groups.map((g) => ({
        ...g,
        positions: g.positions.map((p) => ({
          ...p,
          component: stateOf(p.component),
          resolvesTo: stateOf(p.resolvesTo),
        })),
      })),
    }
  }
  if (parsed.resource.slug === 'layouts')
    return { ...body, layout: annotate(await ownerView(ctx, 'layouts', doc, null)), page: null }
  const pageData = kind === 'pageData' ? { resource: parsed.resource, doc } : null
  const page = pageData ? (relationId(doc.page) ? await findById(ctx, 'pages', relationId(doc.page)!) : null) : doc
  const layout = page && relationId(page.layout) ? await findById(ctx, 'layouts', relationId(page.layout)!) : null
  return {
    ...body,
    layout: layout ? annotate(await ownerView(ctx, 'layouts', layout, pageData)) : null,
    page: page ? annotate(await ownerView(ctx, 'pages', page, pageData)) : null,
  }
}
