import type { CollectionSlug, Where } from 'payload'
import { dataFields, type Resource } from '../../core/registry.js'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import type { HydraContext } from '../../hydra/context.js'
import { versionOf } from '../../hydra/version.js'
import { publicationState, publishableOf, type ResolvedPublishable } from '../publishable/index.js'
import { mainFieldOf } from './blockWrites.js'
import { componentTitle } from './title.js'

type Doc = Record<string, unknown> & { id: string }

/**
 * A block's publication state as the page builder shows it:
 * - draft: never published (publishedAt empty);
 * - scheduled: not live yet, goes live at its date;
 * - live: live, nothing pending (every type that is not publishable is live);
 * - live-draft: live, with a draft of changes not published;
 * - live-scheduled: live, with a draft scheduled to replace it.
 */
export type BlockState = 'draft' | 'scheduled' | 'live' | 'live-draft' | 'live-scheduled'

/** One block reachable from a page: the record its position shows, and the draft "Publish page" would publish. */
export interface PageBlock {
  /** The record the position (or page data property) points at. */
  '@id': string
  slug: string
  id: string
  type: string
  title: string
  state: BlockState
  /** Whether its edits go to a draft (a publishable type); else they go live at once. */
  drafts: boolean
  /** Where it sits: the page, its layout, or the page data record itself. */
  owner: 'page' | 'layout' | 'pageData'
  /** The draft publishing would publish (the record itself, or its draft twin); null when nothing is pending. */
  pending: { slug: string; id: string; iri: string; doc: Doc } | null
  /** The pending draft's scheduled date, if any. */
  scheduledAt: string | null
  /** The field the builder edits in place (blockWrites.ts), with its value as the editor last saved it (the draft's when pending). */
  main: {
    name: string
    label: string
    value: string | null
    kind: 'file' | 'html' | 'text' | 'textarea'
    file: string | null
    /** The version of the record the value was read from (hydra/version.ts): an edit in place sends it as If-Match. */
    version: string | null
  } | null
}

const key = (slug: string, id: string) => `${slug}:${id}`

/** The state of a record (and its draft twin when it has one), for a publishable type; non-publishable types are live. */
function stateOf(
  doc: Doc,
  draft: Doc | null,
  names: ResolvedPublishable | null,
  now: Date,
): { state: BlockState; pending: Doc | null; scheduledAt: string | null } {
  if (!names) return { state: 'live', pending: null, scheduledAt: null }
  const own = publicationState(doc, names, now)
  const at = (d: Doc) => (d[names.publishedAt] ? String(d[names.publishedAt]) : null)
  // A position that points at a draft twin (rare: references move to the twin on publish) shows that draft.
  if (relationId(doc[names.publishedResource]))
    return {
      state: own === 'scheduled' ? 'live-scheduled' : 'live-draft',
      pending: doc,
      scheduledAt: own === 'scheduled' ? at(doc) : null,
    }
  if (own === 'draft') return { state: 'draft', pending: doc, scheduledAt: null }
  if (own === 'scheduled') return { state: 'scheduled', pending: doc, scheduledAt: at(doc) }
  if (!draft) return { state: 'live', pending: null, scheduledAt: null }
  const scheduled = publicationState(draft, names, now) === 'scheduled'
  return {
    state: scheduled ? 'live-scheduled' : 'live-draft',
    pending: draft,
    scheduledAt: scheduled ? at(draft) : null,
  }
}

/** Records by slug and id, each collection read once, with the draft twins of the publishable ones (one query more each). */
async function loadBlocks(
  ctx: HydraContext,
  refs: Array<{ slug: string; id: string }>,
): Promise<Map<string, { resource: Resource; doc: Doc; draft: Doc | null }>> {
  const out = new Map<string, { resource: Resource; doc: Doc; draft: Doc | null }>()
  const bySlug = new Map<string, Set<string>>()
  for (const ref of refs)
    if (!out.has(key(ref.slug, ref.id))) bySlug.set(ref.slug, (bySlug.get(ref.slug) ?? new Set()).add(ref.id))
  for (const [slug, ids] of bySlug) {
    const resource = ctx.registry.bySlug(slug)
    if (!resource) continue
    const find = (where: Where) =>
      ctx.payload
        .find({
          collection: slug as CollectionSlug,
          where,
          depth: 0,
          pagination: false,
          overrideAccess: true,
          req: ctx.req,
        })
        .then((r) => r.docs as Doc[])
    const docs = await find({ id: { in: [...ids] } })
    const names = publishableOf(resource)
    const drafts = names ? await find({ [names.publishedResource]: { in: [...ids] } }) : []
    const draftOf = new Map(drafts.map((d) => [relationId(d[names!.publishedResource]), d]))
    for (const doc of docs)
      out.set(key(slug, String(doc.id)), { resource, doc, draft: draftOf.get(String(doc.id)) ?? null })
  }
  return out
}

const groupIdsOf = (doc: Doc | null | undefined): string[] =>
  ((doc?.componentGroups as unknown[]) ?? []).map((g) => relationId(g)).filter((g): g is string => Boolean(g))

/** How deep component groups may nest (a component owning groups owning components...): a guard against a cycle. */
const MAX_DEPTH = 16

/**
 * Every block reachable from the groups given (their positions' components,
 * and the groups those components own, to any depth), in page order: group
 * by group, position by sortValue, a component's own groups right after it.
 * A few queries per level of nesting, never one per block.
 */
async function blocksUnder(
  ctx: HydraContext,
  rootGroups: string[],
  owner: PageBlock['owner'],
  seen: Set<string>,
  now: Date,
): Promise<PageBlock[]> {
  const out: PageBlock[] = []
  // Each level: the positions of the groups found, then their components (and drafts) by type.
  let level: Array<{ groups: string[]; insertAfter: PageBlock | null }> = [{ groups: rootGroups, insertAfter: null }]
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const groups = [...new Set(level.flatMap((l) => l.groups))].filter((g) => !seen.has(`g:${g}`))
    if (groups.length === 0) break
    for (const g of groups) seen.add(`g:${g}`)
    const positions = (
      await ctx.payload.find({
        collection: 'component_positions',
        where: { componentGroup: { in: groups } },
        sort: 'sortValue',
        depth: 0,
        pagination: false,
        overrideAccess: true,
        req: ctx.req,
      })
    ).docs as Doc[]
    const refs = positions.flatMap((p) =>
      relationId(p.component) ? [{ slug: relationCollection(p.component)!, id: relationId(p.component)! }] : [],
    )
    const loaded = await loadBlocks(ctx, refs)
    const next: typeof level = []
    for (const entry of level) {
      const found: PageBlock[] = []
      for (const groupId of entry.groups) {
        for (const position of positions.filter((p) => relationId(p.componentGroup) === groupId)) {
          const id = relationId(position.component)
          const ref = id ? key(relationCollection(position.component)!, id) : null
          const record = ref ? loaded.get(ref) : undefined
          if (!ref || !record || seen.has(ref)) continue
          seen.add(ref)
          const block = toBlock(ctx, record, owner, now)
          found.push(block)
          const nested = [...new Set([...groupIdsOf(record.doc), ...groupIdsOf(record.draft)])]
          if (nested.length > 0) next.push({ groups: nested, insertAfter: block })
        }
      }
      const at = entry.insertAfter ? out.indexOf(entry.insertAfter) + 1 : out.length
      out.splice(at, 0, ...found)
    }
    level = next
  }
  return out
}

function toBlock(
  ctx: HydraContext,
  record: { resource: Resource; doc: Doc; draft: Doc | null },
  owner: PageBlock['owner'],
  now: Date,
): PageBlock {
  const { resource, doc, draft } = record
  const { state, pending, scheduledAt } = stateOf(doc, draft, publishableOf(resource), now)
  const shown = pending ?? doc
  return {
    '@id': ctx.registry.itemIri(resource.slug, doc.id),
    slug: resource.slug,
    id: String(doc.id),
    type: resource.meta.shortName,
    title: componentTitle(resource, shown),
    state,
    drafts: publishableOf(resource) !== null,
    owner,
    pending: pending
      ? {
          slug: resource.slug,
          id: String(pending.id),
          iri: ctx.registry.itemIri(resource.slug, pending.id),
          doc: pending,
        }
      : null,
    scheduledAt,
    main: mainOf(resource, shown),
  }
}

function mainOf(resource: Resource, doc: Doc): PageBlock['main'] {
  const main = mainFieldOf(resource)
  if (!main) return null
  // A file is shown by its media objects (read by the builder); its alt text is what is edited in place.
  const name = main.kind === 'file' ? (main.alt?.name ?? null) : main.name
  if (!name && main.kind !== 'file') return null
  if (!name)
    return { name: '', label: main.label, value: null, kind: main.kind, file: main.name, version: versionOf(doc) }
  const label = main.kind === 'file' ? main.alt!.label : main.label
  return {
    name,
    label,
    value: typeof doc[name] === 'string' ? (doc[name] as string) : null,
    kind: main.kind,
    file: main.kind === 'file' ? main.name : null,
    version: versionOf(doc),
  }
}

export interface PageBlocks {
  /** The page data record itself when the builder is on page data (publishable page data is a block of its own). */
  pageData: PageBlock | null
  /** The page's blocks (on page data: the template page's, then the components its properties point at). */
  page: PageBlock[]
  layout: PageBlock[]
}

/**
 * Every block reachable from a page, a layout or page data: the page's
 * groups' components (nested groups included), on page data the record
 * itself and the components its properties point at, and the layout's
 * blocks. `owner` is the parsed IRI; 404 handling is the caller's.
 */
export async function pageBlocks(ctx: HydraContext, owner: { resource: Resource; doc: Doc }): Promise<PageBlocks> {
  const now = new Date()
  const seen = new Set<string>()
  const slug = owner.resource.slug
  const findById = async (collection: string, id: string | null) =>
    id
      ? ((await ctx.payload
          .findByID({
            collection: collection as CollectionSlug,
            id,
            depth: 0,
            overrideAccess: true,
            req: ctx.req,
            disableErrors: true,
          })
          .catch(() => null)) as Doc | null)
      : null
  if (slug === 'layouts')
    return { pageData: null, page: [], layout: await blocksUnder(ctx, groupIdsOf(owner.doc), 'layout', seen, now) }
  const isPageData = owner.resource.meta.kind === 'pageData'
  const page = isPageData ? await findById('pages', relationId(owner.doc.page)) : owner.doc
  const layout = page ? await findById('layouts', relationId(page.layout)) : null
  let pageData: PageBlock | null = null
  const pageBlocksList = page ? await blocksUnder(ctx, groupIdsOf(page), 'page', seen, now) : []
  if (isPageData) {
    const [record] = (await loadBlocks(ctx, [{ slug, id: String(owner.doc.id) }])).values()
    if (record) pageData = toBlock(ctx, record, 'pageData', now)
    // The components its properties point at (what its dynamic positions show).
    const refs = dataFields(owner.resource.collection.fields).flatMap((f) =>
      f.type === 'relationship' &&
      typeof f.relationTo === 'string' &&
      relationId(owner.doc[f.name]) &&
      ctx.registry.bySlug(f.relationTo)?.meta.kind === 'component'
        ? [{ slug: f.relationTo, id: relationId(owner.doc[f.name])! }]
        : [],
    )
    const loaded = await loadBlocks(ctx, refs)
    for (const ref of refs) {
      const record = loaded.get(key(ref.slug, ref.id))
      if (!record || seen.has(key(ref.slug, ref.id))) continue
      seen.add(key(ref.slug, ref.id))
      const block = toBlock(ctx, record, 'pageData', now)
      pageBlocksList.push(block, ...(await blocksUnder(ctx, groupIdsOf(record.doc), 'pageData', seen, now)))
    }
  }
  const layoutBlocks = layout ? await blocksUnder(ctx, groupIdsOf(layout), 'layout', seen, now) : []
  return { pageData, page: pageBlocksList, layout: layoutBlocks }
}
