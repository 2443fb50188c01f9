import type { CollectionSlug } from 'payload'
import { dataFields, type Resource } from '../../core/registry.js'
import { inTransaction } from '../../core/utils/sql.js'
import type { HydraContext } from '../../hydra/context.js'
import { notFound, type Violation, violation, ViolationError } from '../../hydra/errors.js'
import { publishableOf, publishContext, publishMany, publishViolations } from '../publishable/index.js'
import { typeLabel } from './blockWrites.js'
import { type PageBlock, type PageBlocks, pageBlocks } from './blocks.js'
import type { PublishPageBody, SchedulePageBody } from './inputs.js'
import { pageRouteOf, routeGoesLiveWithPage, routeWaits } from './pageRoute.js'
import { fieldLabel } from '../adminTitles/index.js'

type Doc = Record<string, unknown> & { id: string }

/** A refusal as the builder shows it: the block, the field, and a sentence saying both. */
export interface BlockViolation extends Violation {
  /** The block as the builder lists it (the record its position points at). */
  block: string
  /** The draft that could not be published. */
  draft: string
  field: string | null
}

/** How many drafts one page publish takes at most (a page is not a bulk import). */
const MAX_BLOCKS = 1000

/** The page, layout or page data named by body.iri (its input checked the IRI's type): 404 when it does not exist. */
async function ownerOf(ctx: HydraContext, iri: string): Promise<{ resource: Resource; doc: Doc }> {
  const parsed = ctx.registry.parseIri(iri)!
  const doc = (await ctx.payload
    .findByID({
      collection: parsed.resource.slug as CollectionSlug,
      id: parsed.id!,
      depth: 0,
      req: ctx.req,
      disableErrors: true,
    })
    .catch(() => null)) as Doc | null
  if (!doc) throw notFound()
  return { resource: parsed.resource, doc }
}

/** The blocks with something to publish, in page order (the page data record first, the layout's last and only when asked). */
export function pendingOf(blocks: PageBlocks, includeLayout: boolean): PageBlock[] {
  return [
    ...(blocks.pageData ? [blocks.pageData] : []),
    ...blocks.page,
    ...(includeLayout ? blocks.layout : []),
  ].filter((b) => b.pending !== null)
}

/** A field's label as the admin shows it (its label, else its name in Payload's words). */
const labelIn = (resource: Resource, name: string): string =>
  fieldLabel(
    dataFields(resource.collection.fields).find((f) => f.name === name),
    name,
  )

/** A publish refusal of one draft, in words: which block, which field, why. */
function blockViolation(ctx: HydraContext, block: PageBlock, v: Violation): BlockViolation {
  const resource = ctx.registry.bySlug(block.slug)!
  const field = v.propertyPath || null
  const where = block.owner === 'layout' ? ' (on the layout)' : ''
  const why = field
    ? v.message === 'This value should not be blank.'
      ? `${labelIn(resource, field)} is empty.`
      : `${labelIn(resource, field)}: ${v.message}`
    : v.message
  return {
    propertyPath: field ?? '',
    message: `The ${typeLabel(ctx, resource)} block “${block.title}”${where} cannot be published: ${why}`,
    code: v.code,
    block: block['@id'],
    draft: block.pending!.iri,
    field,
  }
}

/** Every refusal of the pending drafts, all blocks at once (the builder highlights each). */
function refusals(ctx: HydraContext, pending: PageBlock[]): BlockViolation[] {
  return pending.flatMap((block) => {
    const names = publishableOf(ctx.registry.bySlug(block.slug)!)!
    return publishViolations({ names }, block.pending!.doc).map((v) => blockViolation(ctx, block, v))
  })
}

/**
 * POST /_/page_builder/publish {iri, includeLayout?}: publishes every
 * pending draft reachable from the page (its groups' components to any
 * depth, its page data and the components its properties point at; the
 * layout's blocks only with includeLayout) in ONE transaction through the
 * batch publish: all or nothing. A draft that fails its publish validation
 * refuses the whole request (422) with one violation per block and field.
 * A page whose route waits for its first publication (pageRoute.ts) goes
 * public in the same transaction (`route`: its path).
 * Who may call it (an admin with the publish permission) is the endpoint's
 * declared security (endpoints.ts).
 */
export async function publishPage(
  ctx: HydraContext,
  body: PublishPageBody,
): Promise<{ published: string[]; blocks: string[]; route: string | null }> {
  const asked = body.includeLayout ?? false
  const owner = await ownerOf(ctx, body.iri)
  // On a layout, its blocks are the whole point.
  const pending = pendingOf(await pageBlocks(ctx, owner), asked || owner.resource.slug === 'layouts')
  if (pending.length > MAX_BLOCKS)
    throw new ViolationError([violation('iri', `At most ${MAX_BLOCKS} blocks are published at once.`, 'too_many')])
  const refused = refusals(ctx, pending)
  if (refused.length > 0) throw new ViolationError(refused)
  const drafts = pending.map((block, index) => {
    const resource = ctx.registry.bySlug(block.slug)!
    const { payload: _p, req: _r, ...rest } = publishContext(resource, publishableOf(resource)!, ctx)
    return { ctx: rest, id: block.pending!.id, index, resource }
  })
  try {
    // The blocks and the route's go-live (a page never published waits for this moment) commit together.
    return await inTransaction(ctx.req, async () => {
      const route = await pageRouteOf(ctx, owner)
      if (pending.length === 0 && !routeWaits(route)) return { published: [], blocks: [], route: null }
      const docs = drafts.length > 0 ? await publishMany(ctx.payload, ctx.req, drafts) : []
      const wentLive = await routeGoesLiveWithPage(ctx, route, new Date())
      return {
        published: docs.map((doc, index) => ctx.registry.itemIri(drafts[index]!.resource.slug, doc.id as string)),
        blocks: pending.map((b) => b['@id']),
        route: wentLive ? route!.path : null,
      }
    })
  } catch (error) {
    // Changed between the check above and the lock (another editor): the batch's `iris[i].field` back to the block.
    if (!(error instanceof ViolationError)) throw error
    throw new ViolationError(
      error.violations.map((v) => {
        const match = /^iris\[(\d+)\]\.?(.*)$/.exec(v.propertyPath)
        const block = match ? pending[Number(match[1])] : undefined
        return block ? blockViolation(ctx, block, { ...v, propertyPath: match![2] ?? '' }) : v
      }),
    )
  }
}

/**
 * POST /_/page_builder/schedule {iri, publishedAt, includeLayout?}: the same
 * drafts as "Publish page", each scheduled for publishedAt (a future date),
 * in one transaction; the same refusals. A route that waits gets that date.
 */
export async function schedulePage(
  ctx: HydraContext,
  body: SchedulePageBody,
): Promise<{ scheduled: string[]; publishedAt: string; route: string | null }> {
  const asked = body.includeLayout ?? false
  const at = new Date(body.publishedAt)
  const owner = await ownerOf(ctx, body.iri)
  const pending = pendingOf(await pageBlocks(ctx, owner), asked || owner.resource.slug === 'layouts')
  if (pending.length > MAX_BLOCKS)
    throw new ViolationError([violation('iri', `At most ${MAX_BLOCKS} blocks are scheduled at once.`, 'too_many')])
  const refused = refusals(ctx, pending)
  if (refused.length > 0) throw new ViolationError(refused)
  const publishedAt = at.toISOString()
  const route = await inTransaction(ctx.req, async () => {
    for (const block of pending) {
      const names = publishableOf(ctx.registry.bySlug(block.slug)!)!
      // As the editor (overrideAccess false): the publishable state machine takes the write, as on any schedule.
      await ctx.payload.update({
        collection: block.slug as CollectionSlug,
        id: block.pending!.id,
        data: { [names.publishedAt]: publishedAt },
        depth: 0,
        overrideAccess: false,
        req: ctx.req,
      })
    }
    // A page not public yet goes public at the same moment as its blocks.
    const route = await pageRouteOf(ctx, owner)
    return (await routeGoesLiveWithPage(ctx, route, at)) ? route!.path : null
  })
  return { scheduled: pending.map((b) => b.pending!.iri), publishedAt, route }
}
