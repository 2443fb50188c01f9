import type { CollectionSlug } from 'payload'
import { relationCollection, relationId } from '../../core/utils/relations.js'
import { inTransaction, runSql, sql } from '../../core/utils/sql.js'
import { lockGroupOrder, writeGroupOrder } from '../../core/utils/groupOrder.js'
import type { HydraContext } from '../../hydra/context.js'
import { HttpError, notFound, violation, ViolationError } from '../../hydra/errors.js'
import { cascadeOf, componentUsage, deleteSet } from '../orphans/index.js'
import { type AddGroupBody, type AppendBody, checkedItem, type RemoveBody, type ReorderBody } from './inputs.js'

type Doc = Record<string, unknown> & { id: string }

/**
 * Locks the group's order for the rest of the transaction (the lock every
 * position write takes, core/utils/groupOrder.ts): concurrent reorders,
 * additions and moves in one group, through any API, run one after the
 * other. 404 when the group is gone.
 */
async function lockGroup(ctx: HydraContext, id: string): Promise<void> {
  await lockGroupOrder(ctx.req, [id])
  const dbName = ctx.payload.collections.component_groups.config.dbName
  const table = typeof dbName === 'string' ? dbName : 'component_groups' // the core sets it to a string (table prefix)
  const rows = await runSql(ctx.payload, sql`SELECT id FROM ${sql.identifier(table)} WHERE id = ${id}::uuid`, ctx.req)
  if (rows.length === 0) throw notFound('The component group does not exist.')
}

async function groupPositions(ctx: HydraContext, groupId: string): Promise<Doc[]> {
  const { docs } = await ctx.payload.find({
    collection: 'component_positions',
    where: { componentGroup: { equals: groupId } },
    sort: 'sortValue',
    depth: 0,
    pagination: false,
    req: ctx.req,
  })
  return docs as Doc[]
}

/**
 * POST /_/page_builder/reorder {componentGroup, positions: [IRI...]}: the
 * group's positions in their new order, every one of them exactly once
 * (422 otherwise; 409 when the group's positions changed since the caller
 * read them). sortValue becomes 0, 1, 2... in one transaction; only the
 * positions whose value moves are written.
 */
export async function reorderPositions(
  ctx: HydraContext,
  body: ReorderBody,
): Promise<Array<{ '@id': string; sortValue: number }>> {
  const group = checkedItem(ctx, body.componentGroup).id
  const ids = body.positions.map((iri) => checkedItem(ctx, iri).id)
  if (new Set(ids).size !== ids.length)
    throw new ViolationError([violation('positions', 'A position is listed twice.', 'duplicate')])
  return inTransaction(ctx.req, async () => {
    await lockGroup(ctx, group)
    const current = await groupPositions(ctx, group)
    const known = new Set(current.map((p) => String(p.id)))
    if (current.length !== ids.length || ids.some((id) => !known.has(id))) {
      throw new HttpError(
        409,
        "positions must list every position of the group exactly once: the group's positions changed, reload and try again.",
      )
    }
    // One statement for the whole order (each value a new one: no shifting), each changed position a write event.
    await writeGroupOrder(ctx.req, group, ids)
    return ids.map((id, index) => ({ '@id': ctx.registry.itemIri('component_positions', id), sortValue: index }))
  })
}

/**
 * POST /_/page_builder/positions {componentGroup, component}: places a
 * component at the end of a group (the position rules apply: a type the
 * group does not allow is a 422 and nothing is written).
 */
export async function appendPosition(ctx: HydraContext, body: AppendBody): Promise<Doc> {
  const group = checkedItem(ctx, body.componentGroup).id
  const component = checkedItem(ctx, body.component)
  return inTransaction(ctx.req, async () => {
    await lockGroup(ctx, group)
    const exists = await ctx.payload
      .findByID({
        collection: component.slug as CollectionSlug,
        id: component.id,
        depth: 0,
        req: ctx.req,
        disableErrors: true,
      })
      .catch(() => null)
    if (!exists) throw new ViolationError([violation('component', 'The component does not exist.', 'not_found')])
    const last = (await groupPositions(ctx, group)).at(-1)
    const sortValue = last ? Number(last.sortValue) + 1 : 0
    // Ids are UUID strings here (the plugin's adapter runs with idType 'uuid'); Payload's own type says number | string.
    return (await ctx.payload.create({
      collection: 'component_positions',
      data: {
        componentGroup: group,
        component: { relationTo: component.slug, value: component.id },
        sortValue,
      },
      depth: 0,
      req: ctx.req,
    })) as Doc
  })
}

/**
 * POST /_/page_builder/groups {owner, location}: a new group on a page or
 * layout (reference `<owner reference>_<location>`, or with the owner's IRI
 * under compat: 'cwa-nuxt', as its front end looks groups up), added to the
 * owner's groups in the same transaction (the group's own owner input). A location the owner already has
 * is a 422.
 */
export async function addGroup(ctx: HydraContext, body: AddGroupBody): Promise<Doc> {
  const owner = checkedItem(ctx, body.owner)
  const location = body.location
  return inTransaction(ctx.req, async () => {
    const doc = (await ctx.payload
      .findByID({ collection: owner.slug as CollectionSlug, id: owner.id, depth: 1, req: ctx.req, disableErrors: true })
      .catch(() => null)) as Doc | null
    if (!doc) throw notFound('The owner does not exist.')
    const groups = ((doc.componentGroups as unknown[]) ?? []) as Array<Doc | string>
    if (groups.some((g) => typeof g === 'object' && g && g.location === location)) {
      throw new ViolationError([
        violation(
          'location',
          `This ${owner.slug === 'pages' ? 'page' : 'layout'} already has a group at "${location}".`,
          'duplicate',
        ),
      ])
    }
    const ownerIri = ctx.registry.itemIri(owner.slug, owner.id)
    const reference =
      ctx.options.compat === 'cwa-nuxt' ? `${location}_${ownerIri}` : `${String(doc.reference)}_${location}`
    // The group takes its owner on create, as on every API (core/hooks/groupOwner.ts).
    // Ids are UUID strings here (the plugin's adapter runs with idType 'uuid'); Payload's own type says number | string.
    return (await ctx.payload.create({
      collection: 'component_groups',
      data: { reference, location, [owner.slug]: [owner.id] },
      depth: 0,
      req: ctx.req,
    })) as Doc
  })
}

/**
 * POST /_/page_builder/remove {position}: takes a position out of its
 * group. The component goes with it when this position was its only use (no
 * other position, no page data property), with the contract's cascade (the
 * groups it owns, its draft); a component used elsewhere stays.
 * Answers every IRI deleted.
 */
export async function removePosition(ctx: HydraContext, body: RemoveBody): Promise<string[]> {
  const position = checkedItem(ctx, body.position)
  return inTransaction(ctx.req, async () => {
    const doc = (await ctx.payload
      .findByID({ collection: 'component_positions', id: position.id, depth: 0, req: ctx.req, disableErrors: true })
      .catch(() => null)) as Doc | null
    if (!doc) throw notFound('The component position does not exist.')
    await lockGroup(ctx, relationId(doc.componentGroup)!)
    const componentId = relationId(doc.component)
    const componentSlug = componentId ? relationCollection(doc.component) : null
    let roots = [{ slug: 'component_positions', id: position.id }]
    if (componentId && componentSlug) {
      const usage = (await componentUsage(ctx, ctx.registry.itemIri(componentSlug, componentId))) as {
        positions: unknown[]
        pageData: unknown[]
      }
      if (usage.positions.length === 1 && usage.pageData.length === 0)
        roots = [{ slug: componentSlug, id: componentId }]
    }
    const set = await cascadeOf(ctx.payload, ctx.req, roots)
    set.set('component_positions', (set.get('component_positions') ?? new Set()).add(position.id))
    await deleteSet(ctx.payload, ctx.req, set)
    return [...set].flatMap(([slug, ids]) => [...ids].map((id) => ctx.registry.itemIri(slug, id)))
  })
}
