import { ROLE_ADMIN } from '../../core/options.js'
import { type Endpoint, type EndpointResult, type SecurityRule, withInput } from '../../hydra/endpoint.js'
import { pageBuilderView } from './builder.js'
import {
  addBlockInput,
  addGroupInput,
  appendInput,
  publishPageInput,
  removeInput,
  reorderInput,
  schedulePageInput,
} from './inputs.js'
import { pageBuilderDocs } from './openapi.js'
import { addGroup, appendPosition, removePosition, reorderPositions } from './writes.js'
import { addBlock } from './blockWrites.js'
import { publishPage, schedulePage } from './pagePublish.js'

/** Admin only (401 anonymous, 403 signed-in non-admins); its answers are private. */
const ADMIN = { security: { role: ROLE_ADMIN }, cache: 'no-store' } as const

/** Admin, and the publish permission (as the batch publish asks). */
const PUBLISHER: Pick<Endpoint, 'security' | 'cache'> = {
  security: [
    { role: ROLE_ADMIN },
    {
      granted: (ctx, isGranted) => isGranted(ctx.options.publishable.permission),
      message: 'Publishing needs the publish permission.',
    },
  ] satisfies SecurityRule[],
  cache: 'no-store',
}

/**
 * The page builder's endpoints (this library's own, admin only): the view,
 * reorder, append, add a group, remove, add a block with its content, and
 * publish or schedule a page as a whole. Every write is one transaction;
 * cross-site writes are refused by the pipeline before these run. Their
 * answers are in the entrypoint's context (the serializer's default).
 */
export function pageBuilderEndpoints(): Endpoint[] {
  return [
    {
      method: 'GET',
      path: '/_/page_builder',
      ...ADMIN,
      handler: async (ctx): Promise<EndpointResult> => ({
        status: 200,
        output: { type: 'PageBuilder', data: await pageBuilderView(ctx, ctx.query.get('iri')) },
      }),
      docs: pageBuilderDocs.view,
    },
    withInput({
      method: 'POST',
      path: '/_/page_builder/reorder',
      ...ADMIN,
      input: reorderInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const positions = await reorderPositions(ctx, body)
        return { status: 200, output: { type: 'PositionOrder', data: { positions } } }
      },
      docs: pageBuilderDocs.reorder,
    }),
    withInput({
      method: 'POST',
      path: '/_/page_builder/positions',
      ...ADMIN,
      input: appendInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const position = await appendPosition(ctx, body)
        return {
          status: 201,
          output: {
            type: 'ComponentPosition',
            id: ctx.registry.itemIri('component_positions', position.id),
            data: { sortValue: position.sortValue },
          },
        }
      },
      docs: pageBuilderDocs.append,
    }),
    withInput({
      method: 'POST',
      path: '/_/page_builder/groups',
      ...ADMIN,
      input: addGroupInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const group = await addGroup(ctx, body)
        return {
          status: 201,
          output: {
            type: 'ComponentGroup',
            id: ctx.registry.itemIri('component_groups', group.id),
            data: { reference: group.reference, location: group.location },
          },
        }
      },
      docs: pageBuilderDocs.addGroup,
    }),
    withInput({
      method: 'POST',
      path: '/_/page_builder/remove',
      ...ADMIN,
      input: removeInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const deleted = await removePosition(ctx, body)
        return { status: 200, output: { type: 'PositionRemoval', data: { deleted } } }
      },
      docs: pageBuilderDocs.remove,
    }),
    withInput({
      method: 'POST',
      path: '/_/page_builder/blocks',
      ...ADMIN,
      input: addBlockInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const { component, slug, position } = await addBlock(ctx, body)
        return {
          status: 201,
          output: {
            type: 'BlockAddition',
            data: {
              component: ctx.registry.itemIri(slug, component.id),
              position: ctx.registry.itemIri('component_positions', position.id),
              sortValue: position.sortValue,
            },
          },
        }
      },
      docs: pageBuilderDocs.addBlock,
    }),
    withInput({
      method: 'POST',
      path: '/_/page_builder/publish',
      ...PUBLISHER,
      input: publishPageInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const { published, blocks, route } = await publishPage(ctx, body)
        return {
          status: 200,
          output: { type: 'PagePublication', data: { published, blocks, route, totalItems: published.length } },
        }
      },
      docs: pageBuilderDocs.publish,
    }),
    withInput({
      method: 'POST',
      path: '/_/page_builder/schedule',
      ...PUBLISHER,
      input: schedulePageInput,
      handler: async (ctx, { body }): Promise<EndpointResult> => {
        const { scheduled, publishedAt, route } = await schedulePage(ctx, body)
        return {
          status: 200,
          output: { type: 'PageSchedule', data: { scheduled, publishedAt, route, totalItems: scheduled.length } },
        }
      },
      docs: pageBuilderDocs.schedule,
    }),
  ]
}
