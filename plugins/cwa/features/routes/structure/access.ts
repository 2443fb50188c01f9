import type { HydraContext } from '../../../hydra/context.js'
import type { SecurityRule } from '../../../hydra/endpoint.js'
import { HttpError } from '../../../hydra/errors.js'
import { assertMayWrite } from '../../../hydra/operations.js'
import type { Resource } from '../../../core/registry.js'

/** The Route resource of the registry. */
export function routesResource(ctx: HydraContext): Resource {
  const resource = ctx.registry.bySlug('routes')
  if (!resource) throw new Error('The routes collection is not registered')
  return resource
}

/**
 * The route endpoints that write (generate, PATCH by path) follow the routes
 * collection's own access for `operation`; checked before the body is read,
 * so a caller without the right learns nothing from it. 401 anonymous, 403
 * signed in.
 */
export async function assertMayWriteRoutes(ctx: HydraContext, operation: 'create' | 'update'): Promise<void> {
  await assertMayWrite(routesResource(ctx), operation, ctx)
}

/**
 * The same access as an endpoint's declared `security` (enforced before the body is read and checked against
 * its input): the 403 (`Access Denied.`) a signed-in caller without the right gets from assertMayWriteRoutes.
 */
export const mayWriteRoutes = (operation: 'create' | 'update'): SecurityRule => ({
  granted: async (ctx) => {
    try {
      await assertMayWriteRoutes(ctx, operation)
      return true
    } catch (error) {
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) return false
      throw error
    }
  },
})
