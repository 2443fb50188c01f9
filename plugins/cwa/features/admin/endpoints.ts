import { requestIsAdmin } from '../../core/access.js'
import type { HydraContext } from '../../hydra/context.js'
import type { Endpoint, EndpointResult } from '../../hydra/endpoint.js'
import { forbidden, unauthorized } from '../../hydra/errors.js'
import { pageBuilderView } from './builder.js'
import { pageBuilderDocs } from './openapi.js'
import { addGroup, appendPosition, removePosition, reorderPositions } from './writes.js'
import { addBlock } from './blockWrites.js'
import { publishPage, schedulePage } from './pagePublish.js'

const NO_STORE = { 'Cache-Control': 'private, no-store' }

/** Admin only: 401 anonymous, 403 signed-in non-admins. */
function assertAdmin(ctx: HydraContext): void {
  if (!ctx.user) throw unauthorized()
  if (!requestIsAdmin(ctx.req, ctx.options)) throw forbidden()
}

/** A context that resolves (GET /contexts/Entrypoint), as the publish endpoint's answer uses. */
const context = (ctx: HydraContext) => `${ctx.options.apiPrefix}/contexts/Entrypoint`

/**
 * The page builder's endpoints (this library's own, admin only): the view,
 * reorder, append, add a group, remove, add a block with its content, and
 * publish or schedule a page as a whole. Every write is one transaction;
 * cross-site writes are refused by the pipeline before these run.
 */
export function pageBuilderEndpoints(): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/_/page_builder',
      handler: async (ctx): Promise<EndpointResult> => {
        assertAdmin(ctx)
        return { status: 200, headers: NO_STORE, body: await pageBuilderView(ctx, ctx.query.get('iri')) }
      },
      docs: pageBuilderDocs.view,
    },
    {
      method: 'POST',
      path: '/_/page_builder/reorder',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const positions = await reorderPositions(ctx, body)
        return {
          status: 200,
          headers: NO_STORE,
          body: { '@context': context(ctx), '@type': 'PositionOrder', positions },
        }
      },
      docs: pageBuilderDocs.reorder,
    },
    {
      method: 'POST',
      path: '/_/page_builder/positions',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const position = await appendPosition(ctx, body)
        return {
          status: 201,
          headers: NO_STORE,
          body: {
            '@context': context(ctx),
            '@id': ctx.registry.itemIri('component_positions', position.id),
            '@type': 'ComponentPosition',
            sortValue: position.sortValue,
          },
        }
      },
      docs: pageBuilderDocs.append,
    },
    {
      method: 'POST',
      path: '/_/page_builder/groups',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const group = await addGroup(ctx, body)
        return {
          status: 201,
          headers: NO_STORE,
          body: {
            '@context': context(ctx),
            '@id': ctx.registry.itemIri('component_groups', group.id),
            '@type': 'ComponentGroup',
            reference: group.reference,
            location: group.location,
          },
        }
      },
      docs: pageBuilderDocs.addGroup,
    },
    {
      method: 'POST',
      path: '/_/page_builder/remove',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const deleted = await removePosition(ctx, body)
        return {
          status: 200,
          headers: NO_STORE,
          body: { '@context': context(ctx), '@type': 'PositionRemoval', deleted },
        }
      },
      docs: pageBuilderDocs.remove,
    },
    {
      method: 'POST',
      path: '/_/page_builder/blocks',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const { component, slug, position } = await addBlock(ctx, body)
        return {
          status: 201,
          headers: NO_STORE,
          body: {
            '@context': context(ctx),
            '@type': 'BlockAddition',
            component: ctx.registry.itemIri(slug, component.id),
            position: ctx.registry.itemIri('component_positions', position.id),
            sortValue: position.sortValue,
          },
        }
      },
      docs: pageBuilderDocs.addBlock,
    },
    {
      method: 'POST',
      path: '/_/page_builder/publish',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const { published, blocks } = await publishPage(ctx, body)
        return {
          status: 200,
          headers: NO_STORE,
          body: {
            '@context': context(ctx),
            '@type': 'PagePublication',
            published,
            blocks,
            totalItems: published.length,
          },
        }
      },
      docs: pageBuilderDocs.publish,
    },
    {
      method: 'POST',
      path: '/_/page_builder/schedule',
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        assertAdmin(ctx)
        const { scheduled, publishedAt } = await schedulePage(ctx, body)
        return {
          status: 200,
          headers: NO_STORE,
          body: {
            '@context': context(ctx),
            '@type': 'PageSchedule',
            scheduled,
            publishedAt,
            totalItems: scheduled.length,
          },
        }
      },
      docs: pageBuilderDocs.schedule,
    },
  ]
}
